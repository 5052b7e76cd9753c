# Reference LLRs for the SPRT tests of src/arena/stats/sprt.rs: python3 tests/data/sprt/llr_reference.py
# Independent reference for the trinomial GSPRT LLR as fishtest computes it:
# counts regularised (a zero count becomes 1e-3), empirical pdf over scores 0, 1/2, 1,
# the MLE of the distribution with mean s (Proposition 1.1 of "support_MLE_multinomial":
# p_i / (1 + x (a_i - s)) with sum p_i (a_i - s) / (1 + x (a_i - s)) = 0), and
# LLR = N * sum p_i log(p1_i / p0_i).  The secular equation has three terms, so it is a
# quadratic in x, solved here in closed form (the Rust code bisects instead).
import math

def mle_x(p, a, s):
    b = [ai - s for ai in a]
    # sum_i p_i b_i prod_{j != i} (1 + x b_j) = 0 -> A x^2 + B x + C = 0
    A = B = C = 0.0
    for i in range(3):
        j, k = [m for m in range(3) if m != i]
        C += p[i] * b[i]
        B += p[i] * b[i] * (b[j] + b[k])
        A += p[i] * b[i] * b[j] * b[k]
    lo, hi = -1 / max(b), -1 / min(b)
    if abs(A) < 1e-300:
        roots = [-C / B]
    else:
        d = math.sqrt(B * B - 4 * A * C)
        roots = [(-B + d) / (2 * A), (-B - d) / (2 * A)]
    inside = [r for r in roots if lo < r < hi]
    assert len(inside) == 1, (roots, lo, hi)
    return inside[0], b

def llr(wins, draws, losses, elo0, elo1):
    counts = [1e-3 if c == 0 else float(c) for c in (losses, draws, wins)]
    n = sum(counts)
    p = [c / n for c in counts]
    a = [0.0, 0.5, 1.0]
    s0, s1 = [1 / (1 + 10 ** (-e / 400)) for e in (elo0, elo1)]
    x0, b0 = mle_x(p, a, s0)
    x1, b1 = mle_x(p, a, s1)
    return n * sum(pi * math.log((1 + x0 * b0i) / (1 + x1 * b1i)) for pi, b0i, b1i in zip(p, b0, b1))

for case in [(200, 0, 0), (0, 200, 0), (0, 0, 200), (1, 0, 0), (600, 200, 200), (200, 200, 600), (2, 1, 1), (30, 40, 30)]:
    print(case, repr(llr(*case, 0, 10)))
print("bounds", math.log(0.05 / 0.95), math.log(0.95 / 0.05))
# first n with all wins that reaches the upper bound
n = 1
while llr(n, 0, 0, 0, 10) < math.log(0.95 / 0.05):
    n += 1
print("all wins decide at", n)
n = 1
while llr(0, n, 0, 0, 10) > math.log(0.05 / 0.95):
    n += 1
print("all draws decide at", n)
n = 1
while llr(0, 0, n, 0, 10) > math.log(0.05 / 0.95):
    n += 1
print("all losses decide at", n)
print("-5,5 all wins 200:", repr(llr(200, 0, 0, -5, 5)))
