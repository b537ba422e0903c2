"""Chapter 05 exercises."""

EXERCISES: list = []
