"""Frozen evaluation sets for the PII detector (hand-written and independent-generator).

Nothing here was fitted to a detector rule or model; see README.md and MANIFEST.json.
"""
