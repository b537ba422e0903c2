"""Chapter 09 exercises."""

EXERCISES: list = []
