# SPDX-License-Identifier: GPL-3.0-or-later
# shellcheck shell=sh
#
# otc-prompt's polkit agent for this shell's terminal: pkexec, udisksctl and run0 ask here, spoken and in braille.
# Installed as /usr/share/otc-prompt/polkit-agent.sh and sourced by nothing: to use it, add to ~/.bashrc (or to
# ~/.profile for a login shell on a text console or over ssh):
#
#   . /usr/share/otc-prompt/polkit-agent.sh
#
# It starts the agent only in an interactive shell on a terminal, once, for that shell alone (`--process $$`, as
# `pkttyagent --process` is used); the agent ends with the shell. Not a systemd user unit: a user's service manager
# has no terminal to ask on.
#
# It turns job control off (`set +m`), for good: the agent then shares the shell's process group, which is the
# terminal's foreground while a command you typed runs, so it may read the terminal then; with job control a command
# runs in a group of its own and the terminal would stop the agent (as it stops pkttyagent). Without job control,
# Ctrl-Z does not stop a command, and `&` jobs cannot be brought back with `fg`: leave this out if you need those,
# and start the agent by hand where you need it (docs/user-guide.md, "pkexec, udisksctl and run0 by ear").

case $- in
*i*) ;;
*) return 0 ;;
esac
if [ -t 0 ] && [ -t 2 ] && [ -z "${OTC_PROMPT_POLKIT_AGENT_PID:-}" ] && command -v otc-prompt >/dev/null 2>&1; then
    set +m
    otc-prompt --polkit-agent --process $$ &
    # Not exported: a shell started from this one (a subshell's `bash`, `su`) starts its own agent, for itself.
    OTC_PROMPT_POLKIT_AGENT_PID=$!
fi
