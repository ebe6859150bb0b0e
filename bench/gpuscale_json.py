"""gpuscale's compute records (its --json) as the figures the benches compare: no torch needed.
Usage: import gpuscale_json; gpuscale_json.figures(json.load(open(RUN_JSON))["compute"])

figures(records) -> list of dict(op, precision, layout, tflops, config), one per
  matmul: op "matmul N" (the Linear forward, Y = X W^T, of an N x N x N shape);
  conv:   op "conv fwd", and "conv fwd+bwd" (3 x the forward's FLOPs over the sum of the three passes'
          median times), layout "nchw" or "nhwc".
Only rank 0's records; a skipped record is left out; a failed reference check ends the program.
"""


def figures(records):
    recs = [r for r in records if r["rank"] == 0 and not r["skipped_reason"]]
    for r in recs:
        if r["check"]["ran"] and not r["check"]["passed"]:
            raise SystemExit(f"gpuscale reference check failed: {r['shape']} {r['precision']} {r['pass']}")
    out = []
    for r in recs:
        if r["layer"] == "linear" and r["pass"] == "fwd":
            out.append(dict(op=f"matmul {r['shape'].split()[0][1:]}", precision=r["precision"], layout="",
                            tflops=r["tflops"], config=r["algorithm"]))
    convs = {}
    for r in recs:
        if r["layer"] == "conv2d":
            convs.setdefault((r["shape"], r["precision"]), {})[r["pass"]] = r
    for (shape, precision), passes in convs.items():
        layout, fwd = shape.split()[-1], passes["fwd"]
        total = sum(p["time_s"]["median"] for p in passes.values())
        algorithms = "/".join(passes[k]["algorithm"].replace(" tensor-op", "") for k in ("fwd", "bwd_data", "bwd_weight"))
        out.append(dict(op="conv fwd", precision=precision, layout=layout, tflops=fwd["tflops"],
                        config=f"{layout} {fwd['algorithm']}"))
        out.append(dict(op="conv fwd+bwd", precision=precision, layout=layout,
                        tflops=3 * fwd["flops"] / total / 1e12, config=f"{layout} {algorithms}"))
    return out
