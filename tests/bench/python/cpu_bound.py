# A CPU-bound Python program for tests/bench/python_overhead.py's sampling figure: about 3 s of
# arithmetic in loops (an n-body step and a sieve), few calls, no I/O.
def advance(bodies, steps, dt=0.01):
    for _ in range(steps):
        for i, (xi, yi, vxi, vyi, mi) in enumerate(bodies):
            ax = ay = 0.0
            for j, (xj, yj, _, _, mj) in enumerate(bodies):
                if i != j:
                    dx, dy = xj - xi, yj - yi
                    d2 = dx * dx + dy * dy + 0.01
                    inv = mj / (d2 * d2**0.5)
                    ax += dx * inv
                    ay += dy * inv
            bodies[i] = (xi, yi, vxi + ax * dt, vyi + ay * dt, mi)
        bodies[:] = [(x + vx * dt, y + vy * dt, vx, vy, m) for x, y, vx, vy, m in bodies]


def sieve(n):
    flags = bytearray([1]) * (n + 1)
    count = 0
    for i in range(2, n + 1):
        if flags[i]:
            count += 1
            for k in range(i * i, n + 1, i):
                flags[k] = 0
    return count


advance([(float(i), float(i % 3), 0.0, 0.0, 1.0 + i % 2) for i in range(12)], 150000)
sieve(10_000_000)
