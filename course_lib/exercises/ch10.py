"""Chapter 10 exercises."""

EXERCISES: list = []
