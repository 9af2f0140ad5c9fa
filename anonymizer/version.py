"""The software version recorded in every receipt."""

__version__ = "0.1.0"
