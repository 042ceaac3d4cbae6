"""What a reader is told: templates, the turn reports and treaty records, the handover dossier."""
