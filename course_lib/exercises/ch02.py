"""Chapter 02 exercises."""

EXERCISES: list = []
