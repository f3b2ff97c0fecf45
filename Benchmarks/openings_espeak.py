#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Each caller's opening as espeak-ng's own CLI says it at the default rate (docs/performance.md, "The openings by
espeak-ng's CLI"). The opening's lead (the question and how to answer) comes from the prompt's speech log, the prompt
run silent on a pty with the caller's words (as ssh, sudo and git pass them); each is then synthesised with
`espeak-ng -v VOICE -w FILE TEXT` and timed with `soxi -D`: whole file, the same with leading and trailing silence
trimmed (sox), and the first sentence alone. Usage: Benchmarks/openings_espeak.py [BINARY]"""
import os
import re, pty, time, json, subprocess, sys, select, signal
B = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/debug/otc-prompt")
me = subprocess.run(["id","-un"],capture_output=True,text=True).stdout.strip()
cases = [
 ("plain", [], {}),
 ("sudo (own account)", ["--askpass","--",f"[sudo] password for {me}: "], {}),
 ("sudo (another account: nobody)", ["--askpass","--","[sudo] password for nobody: "], {}),
 ("ssh password", ["--askpass","--","joe@build.example.org's password: "], {}),
 ("ssh TOTP", ["--askpass","--","(joe@build.example.org) Verification code: "], {}),
 ("ssh-add -c", ["--askpass","--","Allow use of key joe@laptop?\nKey fingerprint SHA256:Vvh8dJ1VU7pCmxL9NTs5Uu0XTFa2nLqTFqj6yOZu7pw."], {"SSH_ASKPASS_PROMPT":"confirm"}),
 ("git password", ["--askpass","--","Password for 'https://joe@git.example.org': "], {}),
 ("git user name", ["--askpass","--","Username for 'https://git.example.org': "], {}),
 ("touch notice", ["--askpass","--","Confirm user presence for key ED25519-SK SHA256:Vvh8dJ1VU7pCmxL9NTs5Uu0XTFa2nLqTFqj6yOZu7pw"], {"SSH_ASKPASS_PROMPT":"none"}),
]
def run(args, env, lang):
    log = "/tmp/openings-log.jsonl"
    if os.path.exists(log): os.unlink(log)
    e = {"PATH":"/usr/bin:/bin","TERM":"xterm-256color","LANG":"C.UTF-8","PULSE_SERVER":"unix:/nonexistent"}
    e.update(env)
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(B, [B,"--speech","none","--speech-log",log,"--lang",lang]+args, e)
    end = time.time()+10; lead=None
    while time.time()<end:
        r,_,_ = select.select([fd],[],[],0.05)
        if r:
            try: os.read(fd, 65536)
            except OSError: break
        if os.path.exists(log):
            for line in open(log):
                o=json.loads(line)
                if o.get("event")=="prompt": lead=o; break
        if lead: break
    os.kill(pid, signal.SIGTERM); os.waitpid(pid,0)
    return lead
voices={"en":"en","de":"de"}
for lang in ["en","de"]:
    for name,args,env in cases:
        o=run(args,env,lang)
        if not o: print(lang,name,"NO PROMPT"); continue
        text=o.get("lead") or o["text"]
        subprocess.run(["espeak-ng","-v",voices[lang],"-w","/tmp/o.wav",text],check=True)
        d=float(subprocess.run(["soxi","-D","/tmp/o.wav"],capture_output=True,text=True).stdout)
        subprocess.run(["sox","/tmp/o.wav","/tmp/t.wav","silence","1","0.01","0.5%","reverse","silence","1","0.01","0.5%","reverse"],check=True)
        t=float(subprocess.run(["soxi","-D","/tmp/t.wav"],capture_output=True,text=True).stdout)
        first=re.split(r"(?<=[.?])\s", text, maxsplit=1)[0]
        subprocess.run(["espeak-ng","-v",voices[lang],"-w","/tmp/f.wav",first],check=True)
        f=float(subprocess.run(["soxi","-D","/tmp/f.wav"],capture_output=True,text=True).stdout)
        print(f"| {name} | {lang} | {d:.2f} s | {t:.2f} s | {f:.2f} s | {text} |")
