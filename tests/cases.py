"""Random binary problems shared by the differential tests (scikit-learn as oracle)."""

import numpy as np

PROFILES = ["ties", "continuous", "int_weights", "float_weights", "one_positive", "pos_999"]


def random_case(rng, profile):
    """A random binary problem of the given kind, with both classes of positive weight."""
    while True:
        if profile == "pos_999":
            n = 2000
            y = np.ones(n, dtype=int)
            y[rng.choice(n, size=2, replace=False)] = 0
        else:
            n = int(rng.integers(2, 250))
            y = (rng.random(n) < rng.uniform(0.05, 0.95)).astype(int)
            if profile == "one_positive":
                y[:] = 0
                y[rng.integers(n)] = 1
        if profile == "continuous":
            s = rng.normal(size=n) + y
        else:
            s = rng.integers(0, int(rng.choice([1, 2, 3, 5, 10, 30])) + 1, size=n) / 4.0
            s = s + 0.25 * y * rng.integers(0, 2, size=n)  # a weak signal
        w = None
        if profile == "int_weights":
            w = rng.integers(0, 5, size=n)
        elif profile == "float_weights":
            w = rng.exponential(size=n) * (rng.random(n) < 0.85)
        wy = np.ones(n) if w is None else w
        if wy[y == 1].sum() > 0 and wy[y == 0].sum() > 0:
            return y, s, w
