"""The balance lab: what-if sweeps over a pack (no Qt)."""
