"""A realistic table of scores for the report's tests: a 0/1 label with 17 % positives,
a score rounded to three decimals (so most rows share their score with another row), a
second, noisier score, and a segment column."""

from __future__ import annotations

import numpy as np
import pandas as pd


def sample_frame(n: int = 4000, seed: int = 7) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.18).astype(int)
    signal = rng.normal(size=n) + 1.3 * y
    p = 1 / (1 + np.exp(-(signal - 1.6)))
    p2 = np.clip(p + rng.normal(scale=0.12, size=n), 0, 1)
    return pd.DataFrame({
        "y": y,
        "p": np.round(p, 3),  # ties
        "p2": np.round(p2, 4),
        "segment": rng.choice(["retail", "small business", "corporate"], size=n, p=[0.6, 0.3, 0.1]),
    })
