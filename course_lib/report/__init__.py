"""The validation report of a scoring model (issue 21): see ``REPORT.md``."""

from ._engine import CHUNK, Engine, Groups, MemoryEngine, PairGroups, Summary

__all__ = ["CHUNK", "Engine", "Groups", "MemoryEngine", "PairGroups", "Summary"]
