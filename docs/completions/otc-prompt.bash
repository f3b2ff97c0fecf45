# bash completion for otc-prompt, generated from its option declarations by otc-prompt-docs (make docs).
_otc_prompt() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} i
    # After "--" only PROMPT is left: nothing to complete.
    for ((i = 1; i < COMP_CWORD; i++)); do
        [[ ${COMP_WORDS[i]} == -- ]] && return 0
    done
    # --option=value: bash splits the word at "=" (COMP_WORDBREAKS), or keeps it whole.
    if [[ $cur == = ]]; then
        cur=
    elif [[ $prev == = ]] && ((COMP_CWORD > 1)); then
        prev=${COMP_WORDS[COMP_CWORD-2]}
    elif [[ $cur == --*=* ]]; then
        prev=${cur%%=*} cur=${cur#*=}
    fi
    case $prev in
    -n|--length) return 0 ;;
    --charset) mapfile -t COMPREPLY < <(compgen -W "digits alnum any" -- "$cur"); return 0 ;;
    --lang) mapfile -t COMPREPLY < <(compgen -W "en de es fr pt pt-BR" -- "$cur"); return 0 ;;
    --speech) mapfile -t COMPREPLY < <(compgen -W "auto speechd espeak text none" -- "$cur"); return 0 ;;
    --braille) mapfile -t COMPREPLY < <(compgen -W "auto brlapi none" -- "$cur"); return 0 ;;
    --speech-log) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return 0 ;;
    --verbosity) mapfile -t COMPREPLY < <(compgen -W "terse normal verbose" -- "$cur"); return 0 ;;
    --spell) mapfile -t COMPREPLY < <(compgen -W "plain phonetic" -- "$cur"); return 0 ;;
    --escape-delay) return 0 ;;
    --check) return 0 ;;
    --attempts) return 0 ;;
    --check-timeout) return 0 ;;
    --timeout) return 0 ;;
    --boot-cue) mapfile -t COMPREPLY < <(compgen -W "first retry pin unlocked" -- "$cur"); return 0 ;;
    --process) return 0 ;;
    --agent-directory) return 0 ;;
    --touch-cue) mapfile -t COMPREPLY < <(compgen -W "words tone" -- "$cur"); return 0 ;;
    --voice) return 0 ;;
    --rate) return 0 ;;
    --volume) return 0 ;;
    --pitch) return 0 ;;
    --audio-file) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -X '!*.@(wav)' -- "$cur"; compgen -d -- "$cur"); return 0 ;;
    --style) mapfile -t COMPREPLY < <(compgen -W "line boxes" -- "$cur"); return 0 ;;
    --start-color) return 0 ;;
    --end-color) return 0 ;;
    --placeholder) return 0 ;;
    esac
    if [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "-n --length --charset --mask --no-auto-submit --lang --speech --braille --speech-log --verbosity --spell --escape-delay --doctor --check --attempts --check-timeout --timeout --askpass --pinentry --cryptsetup --boot-cue --stdin --agent --query --polkit-agent --process --agent-directory --agent-echo-user-requests --touch-watch --touch-cue --touch-says-done --voice --rate --volume --pitch --audio-file --style --start-color --end-color --placeholder --version -h --help" -- "$cur")
    fi
    return 0
}
complete -F _otc_prompt otc-prompt
