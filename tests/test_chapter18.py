"""Chapter 18 as the reader sees it: the counts of the flchain data and the numbers of the
light chain group (which needs no fitted model), recomputed here from data/flchain.csv,
the report page the book serves (made by the chapter's own command), and the chapter's
exercises in book order."""

import ast
import hashlib
import json
import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from notebook_tools import chapter, glued, stored

import course_lib as cl
from course_lib.exercises import exercises_for

CH18 = chapter("18_validation_report")
ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data" / "flchain.csv"
#: The report page the book serves (html_extra_path in _config.yml copies book/_extra).
SHIPPED = ROOT / "book" / "_extra" / "reports" / "flchain"


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


def test_the_youngest_band_is_a_subgroup_difference(g):
    """Pooled, the full model beats the light chain group; aged 50-59 the order differs,
    in one band of four and well within the noise: the chapter calls it a difference
    between subgroups, not Simpson's paradox."""
    assert float(g["auc_full"]) > float(g["auc_flc_grp"])
    assert float(g["young_auc_grp"]) > float(g["young_auc_full"])
    assert float(g["young_p"]) > 0.05
    assert float(g["best_band_full"]) < float(g["auc_full"])


def test_the_pairs_between_bands(g, flc):
    """The shares of death-survivor pairs by the bands of the two, recomputed from the
    data (no model needed): 71% have the death in an older band."""
    used = flc[(flc["sample_yr"] >= 1997) & flc["known"]]
    band = np.digitize(used["age"], [60, 70, 80])
    dead = np.bincount(band[used["died"].to_numpy()], minlength=4)
    alive = np.bincount(band[~used["died"].to_numpy()], minlength=4)
    older = sum(dead[i] * alive[:i].sum() for i in range(4))
    same = int(dead @ alive)
    total = int(dead.sum() * alive.sum())
    assert g["pairs_n"] == str(total) == "916774"
    assert np.isclose(float(g["pairs_older"]), 100 * older / total, rtol=1e-9)
    assert np.isclose(float(g["pairs_same"]), 100 * same / total, rtol=1e-9)
    assert round(float(g["pairs_older"])) == 71


def test_simpson_reversal_of_the_light_chains_against_age_and_sex(g):
    """The light chains alone rank better than age and sex in every band (by a hair in
    the oldest) and worse pooled; the pairs across bands decide it."""
    assert float(g["chains_lead_oldest"]) > 0 and float(g["chains_lead_max"]) > 0
    assert float(g["chains_gap"]) > 0 and float(g["chains_z"]) > 3
    assert float(g["chains_same"]) > float(g["age_same_pairs"])
    assert float(g["age_older_pairs"]) > float(g["chains_older"])


def test_the_psi_against_its_noise(g):
    """The PSIs are below the conventional 0.1 but far above a permutation null, whose
    mean is the (k - 1)(1/m_e + 1/m_q) of the chapter."""
    assert float(g["psi_full"]) < 0.1 and float(g["psi_full"]) > 3 * float(g["null_q99_full"])
    floor = 9 * (1 / int(g["n_dev"]) + 1 / int(g["n_val"]))
    assert np.isclose(float(g["psi_floor"]), floor, rtol=1e-9)
    assert abs(float(g["null_mean_full"]) - floor) < 0.1 * floor
    assert g["psi_bins_flc_grp"] == "9"


def test_the_h_measure_names_its_beta(g):
    assert np.isclose(float(g["h_beta"]), 1 + 2642 / 347, rtol=1e-9)
    assert float(g["h22_full"]) < float(g["h_full"])


def test_calibration_is_not_ranking(g):
    assert g["auc_balanced"] == g["auc_full"] and g["same_order"] == "True"
    assert float(g["brier_balanced"]) > float(g["brier_full"])


def test_exercises():
    ids = [ex.id for ex in exercises_for(18)]
    assert ids == ["checkpoint-18-overlapping-intervals", "report-auc-from-groups",
                   "report-paired-z", "report-pooled-auc", "report-psi", "report-prior-shift"]
    # every exercise has variants but the checkpoint, the same for every student
    assert all(ex.variants is not None for ex in exercises_for(18)[1:])
    assert np.isclose(float(exercises_for(18)[4].solution), 0.03679648753113479)


def _chapter_command() -> list[str]:
    """The classifier-report command line of the chapter's code cell, as it stands."""
    for cell in json.loads(CH18.read_text(encoding="utf-8"))["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "code" and "command = [" in source:
            node = ast.parse(source)
            for stmt in node.body:
                if isinstance(stmt, ast.Assign) and getattr(stmt.targets[0], "id", "") == "command":
                    return list(ast.literal_eval(stmt.value))
    raise AssertionError("chapter 18 has no `command = [...]` cell")


def test_the_book_serves_the_chapters_report(tmp_path, monkeypatch):
    """book/_extra/reports/flchain/report.html is, byte for byte, what the chapter's
    command makes from the two CSV files beside it (the chapter checks that those files
    and the page are the ones it writes): a change of the library or of the page that
    would change it fails here until the chapter is re-run with COURSE_UPDATE_REPORT=1."""
    from course_lib.report.cli import main

    command = _chapter_command()
    assert command[0] == "classifier-report" and "--json" in command
    assert command[command.index("--book-url") + 1] == "../.."  # the book's root, seen from reports/flchain/
    for name in ("validation.csv", "development.csv"):
        shutil.copyfile(SHIPPED / name, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    assert main(command[1:]) == 0
    made = (tmp_path / command[command.index("--out") + 1]).read_bytes()
    assert made == (SHIPPED / "report.html").read_bytes()
    page = made.decode("utf-8")
    for name in ("validation.csv", "development.csv"):  # the footer names the files beside it
        digest = hashlib.sha256((SHIPPED / name).read_bytes()).hexdigest()
        assert f">{name}</code>" in page and digest in page
    assert "<script" not in page and not re.search(r"""(src|href)=["']https?:""", page)
    numbers = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert numbers["summary"]["used"] == 2989 and set(numbers["scores"]) == {"full", "age_sex", "flc_grp"}


def test_the_chapter_links_the_report():
    """The chapter's link reaches the page where the book build copies it."""
    cells = json.loads(CH18.read_text(encoding="utf-8"))["cells"]
    prose = "".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    assert '<a href="../reports/flchain/report.html">open the full report</a>' in prose
    assert "book/_extra" in (ROOT / "_config.yml").read_text(encoding="utf-8")
