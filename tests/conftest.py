"""Shared pytest configuration: hypothesis profiles and common fixtures."""

import os

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

# Deterministic, deadline-free property tests: the machines are noisy and CI must be
# reproducible. HYPOTHESIS_PROFILE=thorough runs ten times more examples.
settings.register_profile(
    "default",
    max_examples=100,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough",
    max_examples=1000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture
def table1():
    """The running example of the book ("Table 1" of source D): ids 1..7."""
    scores = np.array([0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0])
    labels = np.array([0, 0, 0, 1, 1, 1, 0])
    return labels, scores


def pytest_collection_modifyitems(config, items):
    """A test that uses the Spark session is a ``spark`` test (``make test`` runs them;
    ``make test-warehouse`` runs only them)."""
    for item in items:
        if "spark_run" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.spark)
