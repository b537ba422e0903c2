"""Chapter 07 exercises."""

EXERCISES: list = []
