"""What a bidder's auction implies, from finished `simulate --bidding` runs: by round and seat
(from the dealer's left; 4 = dealer) the share of deals it makes trump, and how those contracts
fare (make, march, euchred), the share of lone calls, the points per deal to the dealer's side
and to the other side, and the pass-out rate. Reads each run's auction.parquet and run.json.

Usage: python studies/auction_report.py RUN [RUN ...]   (prints JSON, then markdown)
"""

import json
import os
import sys

import pandas as pd


def report(run: str) -> dict:
    auction = pd.read_parquet(os.path.join(run, "auction.parquet"))
    with open(os.path.join(run, "manifest.json"), encoding="utf-8") as handle:
        manifest = json.load(handle)
    deals = manifest["deals"]
    made = auction[auction["round"] > 0].copy()
    for rate in ("make_rate", "march_rate", "euchred_rate", "mean_points"):
        made[rate.replace("_rate", "s").replace("mean_", "")] = made[rate] * made["n"]
    rows = []
    for (round_no, seat), group in made.groupby(["round", "seat"]):
        n = group["n"].sum()
        rows.append({"round": int(round_no), "seat": int(seat),
                     "share": round(100 * n / deals, 2),
                     "make": round(100 * group["makes"].sum() / n, 1),
                     "march": round(100 * group["marchs"].sum() / n, 1),
                     "euchred": round(100 * group["euchreds"].sum() / n, 1),
                     "alone_share": round(100 * group.loc[group["alone"], "n"].sum() / deals, 2),
                     "points_to_makers": round(group["points"].sum() / n, 3)})
    with open(os.path.join(run, "run.json"), encoding="utf-8") as handle:
        facts = json.load(handle)["auction"]  # the run's own: pass-outs, points by side
    return {"run": run, "bidding": manifest["bidding"], "deals": deals,
            "rules": {k: v for k, v in manifest["rules"].items()
                      if k in ("stick_the_dealer", "deck", "no_trump")},
            "by_seat": rows,
            "lone_share": round(sum(r["alone_share"] for r in rows), 2),
            "dealer_side_points_per_deal": round(facts["points_per_deal"]["4"], 3),
            "other_side_points_per_deal": round(facts["points_per_deal"]["1"], 3),
            "pass_out_rate": round(100 * facts["pass_out_rate"], 2)}


def markdown(result: dict) -> str:
    lines = [f"{result['run']}: {result['bidding']}, {result['deals']:,} deals, "
             f"{result['rules']}",
             "| round | seat | makes trump | made | marched | euchred | alone | points to makers |",
             "|---|---|---|---|---|---|---|---|"]
    for r in result["by_seat"]:
        lines.append(f"| {r['round']} | {r['seat']} | {r['share']:.1f} % | {r['make']:.1f} % | "
                     f"{r['march']:.1f} % | {r['euchred']:.1f} % | {r['alone_share']:.2f} % | "
                     f"{r['points_to_makers']:+.3f} |")
    lines.append(f"lone calls {result['lone_share']:.2f} % of deals; points per deal: dealer's "
                 f"side {result['dealer_side_points_per_deal']:+.3f}; passed out "
                 f"{result['pass_out_rate']:.2f} %")
    return "\n".join(lines)


def main() -> None:
    results = [report(run) for run in sys.argv[1:]]
    print(json.dumps(results, indent=1))
    for result in results:
        print()
        print(markdown(result))


if __name__ == "__main__":
    main()
