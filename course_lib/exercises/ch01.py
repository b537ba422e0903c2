"""Chapter 01 exercises."""

EXERCISES: list = []
