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
from notebook_tools import cell_text, chapter, glued, stored

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


def _chapter_value(name: str):
    """The literal assigned to ``name`` in the chapter's command cell, as it stands."""
    for cell in json.loads(CH18.read_text(encoding="utf-8"))["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "code" and "command = [" in source:
            node = ast.parse(source)
            for stmt in node.body:
                if isinstance(stmt, ast.Assign) and getattr(stmt.targets[0], "id", "") == name:
                    return ast.literal_eval(stmt.value)
    raise AssertionError(f"chapter 18 has no `{name} = ...` in its `command = [...]` cell")


def _chapter_command() -> list[str]:
    """The classifier-report command line of the chapter's code cell, as it stands."""
    return list(_chapter_value("command"))


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
    # the chapter fixes the page's run date; so does this run
    monkeypatch.setenv("SOURCE_DATE_EPOCH", _chapter_value("source_date_epoch"))
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
    assert numbers["header"]["run_date"] == "2026-11-27"
    assert numbers["header"]["model"] == command[command.index("--model") + 1]


def test_the_chapter_links_the_report():
    """The chapter's link reaches the page where the book build copies it."""
    cells = json.loads(CH18.read_text(encoding="utf-8"))["cells"]
    prose = "".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    assert '<a href="../reports/flchain/report.html">open the full report</a>' in prose
    assert "book/_extra" in (ROOT / "_config.yml").read_text(encoding="utf-8")


# --- the sections of issue 27: direction, the two KS, calibration by band, the baseline
# Recomputed from the CSV files the book serves beside the report (the chapter checks
# that they are the files it wrote), with scipy, scikit-learn, statsmodels and numpy.


@pytest.fixture(scope="module")
def shipped():
    val = pd.read_csv(SHIPPED / "validation.csv")
    return val[val["died5"].notna()], pd.read_csv(SHIPPED / "development.csv")


def _rounded(value, digits):
    from course_lib.notebook import round_significant

    return repr(round_significant(float(value), digits))


def test_the_positive_class_is_stated_and_a_wrong_one_shows(g, shipped):
    from sklearn.metrics import roc_auc_score, roc_curve

    val, _ = shipped
    y, s = val["died5"].to_numpy().astype(int), val["full"].to_numpy()
    assert g["pos_label"] == "1" and g["pos_rows"] == g["val_deaths"] == str(y.sum())
    assert g["auc_right"] == repr(stored(roc_auc_score(y, s)))
    assert g["auc_wrong"] == repr(stored(roc_auc_score(1 - y, s)))
    text = cell_text(CH18)
    assert ("ValueError: the label takes the values {'alive', 'died'} and pos_label is "
            "not specified") in text
    assert "warning: full: the AUC is 0.1669, below 0.5" in text
    # what the chapter says of scikit-learn: roc_curve refuses words without pos_label,
    # roc_auc_score takes the larger value as positive
    worded = np.where(y == 1, "died", "alive")
    with pytest.raises(ValueError, match="pos_label"):
        roc_curve(worded, s)
    good_bad = np.where(y == 1, "bad", "good")
    assert np.isclose(roc_auc_score(good_bad, s), 1 - roc_auc_score(y, s), rtol=1e-12)


def test_the_two_ks_of_the_backward_segment(g, shipped):
    from scipy.stats import ks_2samp

    val, _ = shipped
    part = val[val["band"] == "50-59"]
    y, s = part["died5"].to_numpy().astype(int), part["age_sex"].to_numpy()
    pos, neg = s[y == 1], s[y == 0]
    cuts = np.unique(s)
    tpr = np.array([(pos >= t).mean() for t in cuts])
    fpr = np.array([(neg >= t).mean() for t in cuts])
    assert g["young_ks_one"] == repr(stored(max((tpr - fpr).max(), 0.0)))
    assert g["young_ks_two"] == repr(stored(ks_2samp(pos, neg).statistic))
    assert float(g["young_ks_two"]) > float(g["young_ks_one"])  # the backward gap is larger
    assert float(g["young_auc_age"]) < 0.5 < float(g["young_age_hi"])
    assert (g["young_deaths"], g["young_n"]) == (str(y.sum()), str(y.size))
    # the full model named the wrong way round: no one-sided gap, the same two-sided one
    assert float(g["turned_ks_one"]) == 0.0 and g["turned_ks_two"] == g["ks_full"]
    text = cell_text(CH18)
    assert "age_sex: in segment '50-59' the AUC is 0.4969" in text  # the command's warning


def test_calibration_by_band(g, shipped):
    import statsmodels.api as sm
    from scipy import stats

    val, dev = shipped
    y, p = val["died5"].to_numpy().astype(int), val["full"].to_numpy()
    order = np.argsort(-p, kind="stable")
    sizes = [299] * 9 + [298]  # deciles of 2,989 rows, the riskiest first
    assert sum(sizes) == y.size
    edges = np.cumsum(sizes)[:-1]
    assert all(p[order][e - 1] > p[order][e] for e in edges)  # no tie across a cut
    bands = np.split(order, edges)
    n = np.array([b.size for b in bands])
    d = np.array([y[b].sum() for b in bands])
    mean = np.array([p[b].mean() for b in bands])
    assert (g["band_top_n"], g["band_top_d"]) == (str(n[0]), str(d[0]))
    assert np.isclose(float(g["band_top_mean"]), mean[0], rtol=1e-9)
    assert g["band_top_binom"] == _rounded(stats.binom.sf(d[0] - 1, n[0], mean[0]), 2)
    assert g["band_top_jeffreys"] == _rounded(
        stats.beta.cdf(mean[0], d[0] + 0.5, n[0] - d[0] + 0.5), 2)
    rest = [min(stats.binom.sf(d[k] - 1, n[k], mean[k]),
                stats.beta.cdf(mean[k], d[k] + 0.5, n[k] - d[k] + 0.5)) for k in range(1, 10)]
    assert g["band_rest_min_p"] == _rounded(min(rest), 2)
    assert float(g["band_top_binom"]) < float(g["bonferroni"]) == 0.005
    e = n * mean
    hl = float(((d - e) ** 2 / (e * (1 - e / n))).sum())
    assert np.isclose(float(g["hl_stat"]), hl, rtol=1e-9) and g["hl_df"] == "8"
    assert g["hl_p"] == _rounded(stats.chi2.sf(hl, 8), 2)
    assert g["hl_p_new"] == _rounded(stats.chi2.sf(hl, 10), 2)
    z = (y.sum() - p.sum()) / np.sqrt((p * (1 - p)).sum())
    assert np.isclose(float(g["citl_z"]), z, rtol=1e-9)
    assert g["citl_p"] == _rounded(2 * stats.norm.sf(abs(z)), 3)
    fit = sm.Logit(y, sm.add_constant(np.log(p / (1 - p)))).fit(disp=0, tol=1e-12)
    ci = fit.conf_int(0.05)
    for key, j in (("rec_a", 0), ("rec_slope", 1)):
        assert np.isclose(float(g[key]), fit.params[j], rtol=1e-7)
        assert np.isclose(float(g[f"{key}_lo"]), ci[j, 0], rtol=1e-6, atol=1e-9)
        assert np.isclose(float(g[f"{key}_hi"]), ci[j, 1], rtol=1e-6, atol=1e-9)
    # the balanced model: the log-odds shifted by the development sample's
    dev_rate = dev["died5"].mean()
    shift = np.log(dev_rate / (1 - dev_rate))
    assert np.isclose(float(g["log_dev_odds"]), -shift, rtol=1e-9)
    balanced = 1 / (1 + np.exp(-(np.log(p / (1 - p)) - shift)))
    fit_b = sm.Logit(y, sm.add_constant(np.log(balanced / (1 - balanced)))).fit(disp=0, tol=1e-12)
    assert np.isclose(float(g["bal_a"]), fit_b.params[0], rtol=1e-7)
    z_b = (y.sum() - balanced.sum()) / np.sqrt((balanced * (1 - balanced)).sum())
    assert np.isclose(float(g["bal_z"]), -z_b, rtol=1e-9)
    assert float(g["bal_min_p"]) > 0.9995  # "1.000 to three decimals"


def _delong_variance(y, s):
    """DeLong's variance of the AUC from the placements, all pairs by broadcasting."""
    pos, neg = s[y == 1], s[y == 0]
    psi = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
    return psi.mean(), psi.mean(axis=1).var(ddof=1) / pos.size + psi.mean(axis=0).var(ddof=1) / neg.size


def test_the_unpaired_test_against_the_development_sample(g, shipped):
    from scipy import stats

    val, dev = shipped
    auc_v, var_v = _delong_variance(val["died5"].to_numpy().astype(int), val["full"].to_numpy())
    auc_d, var_d = _delong_variance(dev["died5"].to_numpy().astype(int), dev["full"].to_numpy())
    z = (auc_v - auc_d) / np.sqrt(var_v + var_d)
    assert np.isclose(float(g["base_auc_full"]), auc_d, rtol=1e-9)
    assert np.isclose(float(g["base_diff_full"]), auc_v - auc_d, rtol=1e-8)
    assert np.isclose(float(g["base_z_full"]), z, rtol=1e-8)
    assert g["base_p_full"] == _rounded(2 * stats.norm.sf(abs(z)), 2)
    assert float(g["base_p_min"]) > 0.05
