"""Chapter 06 exercises."""

EXERCISES: list = []
