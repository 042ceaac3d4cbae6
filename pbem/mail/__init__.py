"""Mail in and out: normalising inbound mail, intake sources, senders."""
