"""Chapter 11 exercises."""

EXERCISES: list = []
