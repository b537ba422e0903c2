"""Chapter 18 as the reader sees it: the counts of the flchain data and the numbers of the
light chain group (which needs no fitted model), recomputed here from data/flchain.csv,
and the chapter's exercises in book order."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from notebook_tools import chapter, glued, stored

import course_lib as cl
from course_lib.exercises import exercises_for

CH18 = chapter("18_validation_report")
DATA = Path(__file__).resolve().parents[1] / "data" / "flchain.csv"


@pytest.fixture(scope="module")
def g():
    return glued(CH18)


@pytest.fixture(scope="module")
def flc():
    frame = pd.read_csv(DATA)
    died = (frame["death"] == 1) & (frame["futime"] <= 5 * 365.25)
    known = died | (frame["futime"] >= 5 * 365.25)
    return frame.assign(died=died, known=known)


def test_the_data_file(flc):
    """7,874 subjects and 2,169 deaths, as scikit-survival's load_flchain documents."""
    assert len(flc) == 7874 and int(flc["death"].sum()) == 2169
    assert list(flc.columns[:10]) == ["age", "sex", "sample_yr", "kappa", "lambda", "flc_grp",
                                      "creatinine", "mgus", "futime", "death"]
    assert int(flc["creatinine"].isna().sum()) == 1350


def test_counts(g, flc):
    assert g["n_all"] == "7874"
    assert g["n_unknown"] == str(int((~flc["known"]).sum())) == "195"
    assert g["n_known"] == "7679" and g["n_died5"] == "935"
    val = flc[flc["sample_yr"] >= 1997]
    assert g["n_val_rows"] == str(len(val))
    assert g["val_dropped"] == str(int((~val["known"]).sum()))
    used = val[val["known"]]
    assert (g["n_val"], g["val_deaths"]) == (str(len(used)), str(int(used["died"].sum())))


def test_light_chain_group_numbers(g, flc):
    used = flc[(flc["sample_yr"] >= 1997) & flc["known"]]
    y, s = used["died"].to_numpy().astype(int), used["flc_grp"].to_numpy()
    ci = cl.auc_ci_delong(y, s)
    assert g["auc_flc_grp"] == repr(stored(ci.auc))
    assert (g["lo_flc_grp"], g["hi_flc_grp"]) == (repr(stored(ci.low)), repr(stored(ci.high)))
    assert g["ks_flc_grp"] == repr(stored(cl.ks_statistic(y, s)))
    assert g["distinct_flc_grp"] == "10"


def test_simpson_reversal_in_the_youngest_band(g):
    """Pooled, the full model beats the light chain group; aged 50-59 the order reverses."""
    assert float(g["auc_full"]) > float(g["auc_flc_grp"])
    assert float(g["young_auc_grp"]) > float(g["young_auc_full"])
    assert float(g["best_band_full"]) < float(g["auc_full"])


def test_calibration_is_not_ranking(g):
    assert g["auc_balanced"] == g["auc_full"] and g["same_order"] == "True"
    assert float(g["brier_balanced"]) > float(g["brier_full"])


def test_exercises():
    ids = [ex.id for ex in exercises_for(18)]
    assert ids == ["report-auc-from-groups", "report-paired-z", "report-pooled-auc",
                   "report-psi", "report-prior-shift"]
    assert all(ex.variants is not None for ex in exercises_for(18))
    assert np.isclose(float(exercises_for(18)[3].solution), 0.03679648753113479)
