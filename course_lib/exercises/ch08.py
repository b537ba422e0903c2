"""Chapter 08 exercises."""

EXERCISES: list = []
