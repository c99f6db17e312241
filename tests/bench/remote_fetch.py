#!/usr/bin/env python3
"""How soon a remote run's trace is here after its target ended (issue 50): starts an OpenSSH
server on 127.0.0.1 (a host key and a user key made for it in a temporary folder, as the tests
do), runs `strata-cli record --remote` on the stand-in target writing --launches N launches and
their kernels (1,000,000 make about 145 MB), and prints, per run, the trace's size and the time
from the target's end (its run record: start + duration) to the local copy's last write (mtime).
The first run also copies strata-cli there; it is printed apart.

  python3 tests/bench/remote_fetch.py [--build build] [--launches 700000] [--runs 3]
"""
import argparse
import json
import os
import socket
import subprocess
import tempfile
import time


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def start_sshd(d):
    for key in ("host_key", "user_key"):
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", f"{d}/{key}"],
                       check=True)
    with open(f"{d}/user_key.pub") as src, open(f"{d}/authorized_keys", "w") as dst:
        dst.write(src.read())
    os.makedirs("/run/sshd", exist_ok=True)
    port = free_port()
    with open(f"{d}/sshd_config", "w") as f:
        f.write(f"Port {port}\nListenAddress 127.0.0.1\nHostKey {d}/host_key\n"
                f"PidFile {d}/sshd.pid\nAuthorizedKeysFile {d}/authorized_keys\n"
                "PasswordAuthentication no\nPermitRootLogin prohibit-password\n"
                "StrictModes no\nUsePAM no\n")
    p = subprocess.Popen(["/usr/sbin/sshd", "-D", "-e", "-f", f"{d}/sshd_config"],
                         stderr=subprocess.DEVNULL)
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            return p, port
        except OSError:
            time.sleep(0.05)
    raise SystemExit("sshd does not listen")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--launches", type=int, default=700000)
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    cli = os.path.abspath(f"{a.build}/app/strata-cli")
    fake = os.path.abspath(f"{a.build}/tests/record_fake_target")
    with tempfile.TemporaryDirectory() as d:
        os.chmod(d, 0o700)
        sshd, port = start_sshd(d)
        user = os.environ.get("USER") or subprocess.run(
            ["id", "-un"], capture_output=True, text=True).stdout.strip()
        try:
            for i in range(a.runs + 1):
                out = f"{d}/run{i}.strata"
                t0 = time.time()
                r = subprocess.run(
                    [cli, "record", "-q", "--remote", f"{user}@127.0.0.1:{port}",
                     "--ssh-option", f"IdentityFile={d}/user_key", "--ssh-option",
                     "IdentitiesOnly=yes", "--ssh-option", f"UserKnownHostsFile={d}/known",
                     "--ssh-option", "StrictHostKeyChecking=accept-new", "--remote-dir",
                     f"{d}/remote", "-o", out, "--", fake, "--launches", str(a.launches)],
                    capture_output=True, text=True)
                wall = time.time() - t0
                if r.returncode != 0:
                    raise SystemExit(f"run {i}: exit {r.returncode}: {r.stderr}")
                info = json.loads(subprocess.run([cli, "info", "--json", out],
                                                 capture_output=True, text=True).stdout)
                run = info["run"]
                ended = (run["start_unix_ns"] + run["duration_ns"]) / 1e9
                arrived = os.stat(out).st_mtime - ended
                print(json.dumps({"run": i, "first (copies strata-cli)": i == 0,
                                  "trace_mb": round(os.path.getsize(out) / 1e6, 1),
                                  "target_s": round(run["duration_ns"] / 1e9, 3),
                                  "arrived_after_target_end_s": round(arrived, 3),
                                  "whole_s": round(wall, 3)}))
                os.remove(out)
        finally:
            sshd.terminate()
            sshd.wait()


if __name__ == "__main__":
    main()
