"""Diagnostic codes (one registry) and findings (data)."""

from .finding import Edit, Finding, Witness, make
from .registry import CODES, REGISTRY, Code, Family, Severity, get

__all__ = ["CODES", "REGISTRY", "Code", "Edit", "Family", "Finding", "Severity", "Witness", "get", "make"]
