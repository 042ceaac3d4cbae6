"""pbem: a play-by-email moderator for negotiation-heavy grand-strategy board games."""
__version__ = "0.2.0"
