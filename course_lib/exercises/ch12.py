"""Chapter 12 exercises."""

EXERCISES: list = []
