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
# It needs job control, on in an interactive shell unless turned off (`set +m`): a command you run is then in a
# process group of its own, the terminal's foreground, and a job started with `&` is not. The agent asks only for a
# program in the foreground, joining its group for the length of the question so that the shell, waiting for it,
# reads nothing meanwhile. Without job control every job, `&` ones too, is in the shell's group, always the
# foreground, and a password typed for `pkexec … &` could reach the shell's command line: so with job control off
# the agent is not started.

case $- in
*i*) ;;
*) return 0 ;;
esac
if [ -t 0 ] && [ -t 2 ] && [ -z "${OTC_PROMPT_POLKIT_AGENT_PID:-}" ] && command -v otc-prompt >/dev/null 2>&1; then
    case $- in
    *m*) ;;
    *)
        echo "otc-prompt: the polkit agent is not started: job control is off in this shell (set -m turns it on)." >&2
        return 0
        ;;
    esac
    otc-prompt --polkit-agent --process $$ &
    # Not exported: a shell started from this one (a subshell's `bash`, `su`) starts its own agent, for itself.
    OTC_PROMPT_POLKIT_AGENT_PID=$!
fi
