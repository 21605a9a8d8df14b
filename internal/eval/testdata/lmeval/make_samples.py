"""Writes lm-evaluation-harness --log_samples files for the prompt rows of
nlsat prompt, in the layout of lm_eval/evaluator.py and
lm_eval/loggers/evaluation_tracker.py (save_results_samples): one JSON line
per document and filter, dumped by json.dumps(ensure_ascii=False), with
arguments as {"gen_args_K": {"arg_0": ..., "arg_1": ...}} and every response
turned into a string (sanitize_list). The model answers are made up here,
chosen to be the kinds a model gives.

usage: python3 make_samples.py PROMPTS.jsonl TAG GEN_ANSWERS LOGLIKELIHOODS
  GEN_ANSWERS     a JSON list of generations, one per row ("" = no gen file)
  LOGLIKELIHOODS  a JSON list of [ll_unsat, ll_sat] per row
"""
import hashlib
import json
import re
import string
import sys

DATE = "2025-06-01T12-00-00.000000"


def h(s):
    return hashlib.sha256(s.encode("utf-8")).hexdigest()


def dump(sample):
    return json.dumps(sample, ensure_ascii=False) + "\n"


def regex_filter(pattern, resp):
    m = re.findall(pattern, resp)
    return m[0].strip() if m else "[invalid]"


def exact_match(pred, target):
    strip = str.maketrans("", "", string.punctuation)
    return float(pred.lower().translate(strip) == target.lower().translate(strip))


def gen_samples(rows, answers):
    gen_kwargs = {"until": ["\n\n", "Q:"], "do_sample": False, "temperature": 0.0, "max_gen_toks": 16}
    filters = [("strict-match", r"(?i)^\s*(unsatisfiable|satisfiable)\b"),
               ("flexible-extract", r"(?i)\b(unsatisfiable|satisfiable)\b")]
    out = []
    for name, pattern in filters:  # the harness loops over filters, then documents
        for i, (doc, ans) in enumerate(zip(rows, answers)):
            filtered = regex_filter(pattern, ans)
            out.append(dump({
                "doc_id": i, "doc": doc, "target": doc["target_sat"],
                "arguments": {"gen_args_0": {"arg_0": doc["prompt_sat"], "arg_1": gen_kwargs}},
                "resps": [[ans]], "filtered_resps": [filtered], "filter": name,
                "metrics": ["exact_match"],
                "doc_hash": h(json.dumps(doc, indent=2, ensure_ascii=False)),
                "prompt_hash": h(doc["prompt_sat"]), "target_hash": h(doc["target_sat"]),
                "exact_match": exact_match(filtered, doc["target_sat"]),
            }))
    return out


def mc_samples(rows, lls):
    out = []
    for i, (doc, ll) in enumerate(zip(rows, lls)):
        pairs = [[str(float(x)), "False"] for x in ll]
        out.append(dump({
            "doc_id": i, "doc": doc, "target": str(doc["label"]),
            "arguments": {"gen_args_%d" % k: {"arg_0": doc["prompt_tf"], "arg_1": " " + c}
                          for k, c in enumerate(["False", "True"])},
            "resps": [[p] for p in pairs], "filtered_resps": pairs, "filter": "none",
            "metrics": ["acc"],
            "doc_hash": h(json.dumps(doc, indent=2, ensure_ascii=False)),
            "prompt_hash": h(doc["prompt_tf"]), "target_hash": h(str(doc["label"])),
            "acc": float(max(range(len(ll)), key=lambda k: (ll[k], -k)) == doc["label"]),
        }))
    return out


def main():
    prompts, tag, answers, lls = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), json.loads(sys.argv[4])
    rows = [json.loads(l) for l in open(prompts, encoding="utf-8")]
    if answers:
        with open("samples_%s_satunsat_gen_%s.jsonl" % (tag, DATE), "w", encoding="utf-8") as f:
            f.writelines(gen_samples(rows, answers))
    with open("samples_%s_truefalse_%s.jsonl" % (tag, DATE), "w", encoding="utf-8") as f:
        f.writelines(mc_samples(rows, lls))


main()
