# Reference LLRs for the pentanomial (and trinomial) SPRT of src/arena/stats/sprt.rs.
#
# A transcription of fishtest's LLR_logistic (server/fishtest/stats/LLRcalc.py) in plain Python,
# written from the published algorithm and not from the Rust code:
#   - regularize: a zero count becomes 1e-3;
#   - results_to_pdf: N = sum of the counts, outcome i of l has score i / (l - 1) (for a pair:
#     its score per game, 0, 1/4, 1/2, 3/4, 1) and probability count_i / N;
#   - MLE_expected: the most likely distribution with expected score s is p_i / (1 + x (a_i - s))
#     where x solves the secular equation sum_i p_i (a_i - s) / (1 + x (a_i - s)) = 0
#     (Van den Bergh, "support_MLE_multinomial", Proposition 1.1), found with Brent's method on
#     (-1/max(a - s) + 1e-9, -1/min(a - s) - 1e-9) as fishtest does with scipy's brentq (a
#     transcription of scipy's brentq follows, so no scipy is needed; the Rust code bisects);
#   - LLR_logistic: s0, s1 = L(elo0), L(elo1) with L(x) = 1 / (1 + 10^(-x/400)), and
#     LLR = N * sum_i p_i (log p1_i - log p0_i).
#
# Usage:
#   python3 tests/data/sprt/pentanomial_reference.py           # the table the Rust tests hold
#   python3 tests/data/sprt/pentanomial_reference.py --stdin   # one case a line:
#       "elo0 elo1 c0 c1 c2 [c3 c4]" (3 counts: L, D, W; 5 counts: LL, LD, DD+WL, WD, WW),
#       answered with one LLR a line (repr of the float).
import math
import sys


def brentq(f, xa, xb, xtol=2e-12, rtol=4 * 2.220446049250313e-16, maxiter=100):
    """scipy.optimize.brentq (Brent's method, scipy's C version) in Python."""
    xpre, xcur = xa, xb
    xblk = fblk = spre = scur = 0.0
    fpre, fcur = f(xpre), f(xcur)
    assert fpre * fcur < 0, (fpre, fcur)
    for _ in range(maxiter):
        if fpre != 0 and fcur != 0 and (fpre < 0) != (fcur < 0):
            xblk, fblk = xpre, fpre
            spre = scur = xcur - xpre
        if abs(fblk) < abs(fcur):
            xpre, xcur, xblk = xcur, xblk, xcur
            fpre, fcur, fblk = fcur, fblk, fcur
        delta = (xtol + rtol * abs(xcur)) / 2
        sbis = (xblk - xcur) / 2
        if fcur == 0 or abs(sbis) < delta:
            return xcur
        if abs(spre) > delta and abs(fcur) < abs(fpre):
            if xpre == xblk:
                stry = -fcur * (xcur - xpre) / (fcur - fpre)  # interpolate
            else:
                dpre = (fpre - fcur) / (xpre - xcur)  # extrapolate
                dblk = (fblk - fcur) / (xblk - xcur)
                stry = -fcur * (fblk * dblk - fpre * dpre) / (dblk * dpre * (fblk - fpre))
            if 2 * abs(stry) < min(abs(spre), 3 * abs(sbis) - delta):
                spre, scur = scur, stry  # good short step
            else:
                spre = scur = sbis  # bisect
        else:
            spre = scur = sbis  # bisect
        xpre, fpre = xcur, fcur
        xcur += scur if abs(scur) > delta else (delta if sbis > 0 else -delta)
        fcur = f(xcur)
    raise RuntimeError("brentq did not converge")


def secular(pdf):
    """The root of sum_i p_i a_i / (1 + x a_i) = 0, pdf = [(a_i, p_i)]."""
    epsilon = 1e-9
    values = [ai for ai, _ in pdf]
    v, w = min(values), max(values)
    assert v * w < 0
    lo, hi = -1 / w, -1 / v

    def f(x):
        return sum(pi * ai / (1 + x * ai) for ai, pi in pdf)

    return brentq(f, lo + epsilon, hi - epsilon)


def stats(pdf):
    s = sum(p * a for a, p in pdf)
    var = sum(p * (a - s) ** 2 for a, p in pdf)
    return s, var


def mle_expected(pdfhat, s):
    x = secular([(ai - s, pi) for ai, pi in pdfhat])
    pdf = [(ai, pi / (1 + x * (ai - s))) for ai, pi in pdfhat]
    assert abs(stats(pdf)[0] - s) < 1e-6
    return pdf


def regularize(counts):
    return [1e-3 if c == 0 else float(c) for c in counts]


def results_to_pdf(counts):
    counts = regularize(counts)
    n = sum(counts)
    last = len(counts) - 1
    return n, [(i / last, c / n) for i, c in enumerate(counts)]


def L(elo):
    return 1 / (1 + 10 ** (-elo / 400))


def llr_logistic(elo0, elo1, counts):
    s0, s1 = L(elo0), L(elo1)
    n, pdf = results_to_pdf(counts)
    pdf0, pdf1 = mle_expected(pdf, s0), mle_expected(pdf, s1)
    jumps = [(math.log(pdf1[i][1]) - math.log(pdf0[i][1]), pdf[i][1]) for i in range(len(pdf))]
    return n * stats(jumps)[0]


# The tables the Rust tests hold (src/arena/stats/sprt.rs and tests/it/arena/sprt_reference.rs).
TABLES = [
    [200, 0, 0, 0, 0],
    [0, 0, 200, 0, 0],
    [0, 0, 0, 0, 200],
    [0, 0, 0, 0, 1],
    [20, 20, 20, 20, 20],
    [10, 50, 200, 60, 12],
    [12, 60, 200, 50, 10],
    [1187, 7410, 13475, 7378, 1164],
]
SETTINGS = [(0, 10), (0, 5), (-5, 5)]


def first_pairs_deciding(counts_of, elo0, elo1, upper, lower):
    n = 1
    while lower < llr_logistic(elo0, elo1, counts_of(n)) < upper:
        n += 1
    return n


def main():
    if "--stdin" in sys.argv[1:]:
        for line in sys.stdin:
            fields = line.split()
            if not fields:
                continue
            elo0, elo1 = float(fields[0]), float(fields[1])
            counts = [int(c) for c in fields[2:]]
            assert len(counts) in (3, 5), line
            print(repr(llr_logistic(elo0, elo1, counts)))
        return
    for elo0, elo1 in SETTINGS:
        for counts in TABLES:
            print(elo0, elo1, counts, repr(llr_logistic(elo0, elo1, counts)))
    upper, lower = math.log(0.95 / 0.05), math.log(0.05 / 0.95)
    for name, counts_of in [
        ("WW", lambda n: [0, 0, 0, 0, n]),
        ("DD", lambda n: [0, 0, n, 0, 0]),
        ("LL", lambda n: [n, 0, 0, 0, 0]),
    ]:
        # All draws against symmetric hypotheses (-5, 5) has LLR 0 for ever: not listed.
        for elo0, elo1 in [(0, 10)] + ([(-5, 5)] if name != "DD" else []):
            print(f"all {name}, {elo0},{elo1},0.05,0.05: decided after",
                  first_pairs_deciding(counts_of, elo0, elo1, upper, lower), "pairs")
    # The trinomial cases of llr_reference.py, through this transcription.
    for case in [(200, 0, 0), (0, 200, 0), (0, 0, 200), (2, 1, 1), (30, 40, 30)]:
        w, d, l = case
        print("trinomial W-D-L", case, repr(llr_logistic(0, 10, [l, d, w])))


if __name__ == "__main__":
    main()
