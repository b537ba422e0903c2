"""Chapter 04 exercises."""

EXERCISES: list = []
