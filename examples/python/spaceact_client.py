"""A minimal client of `spaceact serve` (standard library only).

    npx spaceact serve --port 8642 --out runs/serve-python
    python3 examples/python/spaceact_client.py --url http://127.0.0.1:8642 --instance P6-L3-s100

The scripted policy below never looks at the pictures: it plays the tools' legal-looking calls
(every combination of enum arguments, skipping ones that name the same value twice) in turn,
two per reply, until the episode ends (here: when the action budget is spent). It shows the
whole protocol: create an episode, read the observation (rules, tools with their JSON schemas,
pictures by URL, turn and budgets), send replies in the SAPA format, read the results, and
read the end in plain words. Replace `ScriptedPolicy.reply` with your agent.
"""

import argparse
import itertools
import json
import os
import sys
import urllib.error
import urllib.request

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class ServeError(Exception):
    """A refusal of the server: HTTP status, its stable `code`, the message and any problems."""

    def __init__(self, status, body):
        self.status = status
        self.code = body.get("code", "error")
        self.problems = body.get("problems", [])
        super().__init__(f"{status} {self.code}: {body.get('error', '')} {self.problems or ''}".strip())


class SpaceActClient:
    """Talks JSON to one `spaceact serve` at `url` (e.g. http://127.0.0.1:8642)."""

    def __init__(self, url, timeout=600):
        self.url = url.rstrip("/")
        self.timeout = timeout

    def _request(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode("utf-8")
        req = urllib.request.Request(self.url + path, data=data, method=method)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as res:
                raw = res.read()
                return raw if res.headers.get_content_type() == "image/png" else json.loads(raw)
        except urllib.error.HTTPError as err:
            try:
                body = json.loads(err.read())
            except ValueError:
                body = {"error": "not JSON"}
            raise ServeError(err.code, body) from None

    def info(self):
        return self._request("GET", "/api")

    def create(self, instance, mode=None, agent=None):
        body = {"instance": instance}
        if mode is not None:
            body["mode"] = mode
        if agent is not None:
            body["agent"] = agent
        return self._request("POST", "/api/episodes", body)

    def state(self, episode):
        return self._request("GET", f"/api/episodes/{episode}")

    def picture(self, image):
        """The PNG bytes of one picture of the observation (`image` from `state["images"]`)."""
        return self._request("GET", image["url"])

    def turn(self, episode, turn, reply):
        """Sends one reply ({rationale, note, actions} or its text); returns {turn, state}."""
        return self._request("POST", f"/api/episodes/{episode}/turn", {"turn": turn, "reply": reply})

    def give_up(self, episode, turn):
        return self._request("POST", f"/api/episodes/{episode}/give-up", {"turn": turn})


class ScriptedPolicy:
    """Plays every combination of enum arguments of the action tools in turn, never looking."""

    def __init__(self, tools, per_reply=2):
        self.calls = []
        for tool in tools:
            if tool["kind"] == "perception":
                continue
            props = tool["parameters"].get("properties", {})
            names = list(props)
            values = [props[n].get("enum") for n in names]
            if not names or any(v is None for v in values):
                continue  # only tools whose every argument is a choice of listed values
            for combo in itertools.product(*values):
                if len(set(map(json.dumps, combo))) < len(combo):
                    continue  # "from A to A": the same value twice
                self.calls.append({"tool": tool["name"], "args": dict(zip(names, combo))})
        if not self.calls:
            raise SystemExit("no action tool with listed argument values: this policy cannot play it")
        self.per_reply = per_reply
        self.next = 0
        self.look = next((t for t in tools if t["name"] == "orbit"), None)

    def reply(self, state):
        n = max(1, min(self.per_reply, state["actionCap"]))
        actions = []
        if self.look is not None and state["turn"] == 1 and n > 1:
            # Looking costs nothing from the action budget.
            actions.append({"tool": "orbit", "args": {"azimuth_deg": 20}})
        while len(actions) < n:
            actions.append(self.calls[self.next % len(self.calls)])
            self.next += 1
        return {
            "rationale": f"scripted: calls {self.next - len(actions) + 1}..{self.next} of the cycle",
            "note": f"next call in the cycle: {self.next}",
            "actions": actions,
        }


def main(argv=None):
    ap = argparse.ArgumentParser(description="play one SpaceAct episode through `spaceact serve` with a scripted policy")
    ap.add_argument("--url", default="http://127.0.0.1:8642")
    ap.add_argument("--instance", default="P6-L3-s100")
    ap.add_argument("--mode", default=None)
    ap.add_argument("--agent", default="scripted-python", help="logged as agent http:<label>")
    ap.add_argument("--save-pictures", default=None, help="folder to save the first picture of every turn in")
    args = ap.parse_args(argv)

    client = SpaceActClient(args.url)
    info = client.info()
    print(f"server: {info['name']} {info['version']}, logging into {info['out']}")
    state = client.create(args.instance, mode=args.mode, agent=args.agent)
    episode = state["episode"]
    print(f"episode {episode}: {state['instance']['title']} (mode {state['mode']}, agent {state['agent']})")
    print(f"tools: {', '.join(t['name'] + ' [' + t['kind'] + ']' for t in state['tools'])}")
    policy = ScriptedPolicy(state["tools"])
    if args.save_pictures:
        os.makedirs(args.save_pictures, exist_ok=True)

    while state["status"] == "waiting":
        for image in state["images"][:1]:
            png = client.picture(image)
            if not png.startswith(PNG_SIGNATURE):
                raise SystemExit(f"turn {state['turn']}: {image['url']} is not a PNG")
            if args.save_pictures:
                with open(os.path.join(args.save_pictures, f"turn-{state['turn']:03d}.png"), "wb") as f:
                    f.write(png)
        budget = f", actions {state['actionsUsed']}/{state['actionBudget']}" if "actionBudget" in state else ""
        answer = client.turn(episode, state["turn"], policy.reply(state))
        played = answer["turn"]
        results = "; ".join(f"{r['call']['tool']} {json.dumps(r['call']['args'])} -> {r['status']}: {r['message']}" for r in played["results"])
        print(f"turn {played['turn']} (turns {state['turnsUsed']}/{state['turnBudget']}{budget}): {results}")
        state = answer["state"]

    if state["status"] != "finished":
        raise SystemExit(f"the episode is {state['status']}: {state['message']}")
    o = state["outcome"]
    print(f"ended: {o['endText']} ({o['endReason']}); solved {o['solved']}, score {o['score']}, {o['turns']} turns, {o['actions']} actions (reference {o['referenceActions']}), {o['violations']} violations")
    print(f"log: {o['logFile']}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except ServeError as err:
        print(f"spaceact serve refused: {err}", file=sys.stderr)
        sys.exit(1)
