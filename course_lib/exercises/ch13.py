"""Chapter 13 exercises."""

EXERCISES: list = []
