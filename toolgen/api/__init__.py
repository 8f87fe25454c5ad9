"""The platform's HTTP API: a Powertools REST resolver behind API Gateway (or the embedded default's gateway)."""
