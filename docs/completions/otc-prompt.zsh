#compdef otc-prompt

__otc-prompt_complete() {
    local -ar non_empty_completions=("${@:#(|:*)}")
    local -ar empty_completions=("${(M)@:#(|:*)}")
    _describe -V '' non_empty_completions -- empty_completions -P $'\'\''
}

__otc-prompt_custom_complete() {
    local -a completions
    completions=("${(@f)"$("${command_name}" "${@}" "${command_line[@]}")"}")
    if [[ "${#completions[@]}" -gt 1 ]]; then
        __otc-prompt_complete "${completions[@]:0:-1}"
    fi
}

__otc-prompt_cursor_index_in_current_word() {
    if [[ -z "${QIPREFIX}${IPREFIX}${PREFIX}" ]]; then
        printf 0
    else
        printf %s "${#${(z)LBUFFER}[-1]}"
    fi
}

_otc-prompt() {
    emulate -RL zsh -G
    setopt extendedglob nullglob numericglobsort
    unsetopt aliases banghist

    local -xr SAP_SHELL=zsh
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(builtin emulate zsh -c 'printf %s "${ZSH_VERSION}"')"
    local -r SAP_SHELL_VERSION

    local context state state_descr line
    local -A opt_args

    local -r command_name="${words[1]}"
    local -ar command_line=("${words[@]}")
    local -ir current_word_index="$((CURRENT - 1))"

    local -i ret=1
    local -ar ___charset=('digits' 'alnum' 'any')
    local -ar ___lang=('en' 'pt')
    local -ar ___speech=('auto' 'speechd' 'espeak' 'text' 'none')
    local -ar ___verbosity=('terse' 'normal' 'verbose')
    local -ar ___style=('line' 'boxes')
    local -ar arg_specs=(
        ':prompt:'
        '(-n --length)'{-n,--length}'[How many characters the code has. (1–12; default\: 6)]:N:'
        '--charset[Which characters the code may hold. (default\: digits)]:digits|alnum|any:{__otc-prompt_complete "${___charset[@]}"}'
        '--mask[Secure entry\: characters are never shown, spoken or logged, only counted.]'
        '--no-auto-submit[Wait for Enter instead of submitting a full field.]'
        '--lang[Language of the words (pt… gives Brazilian Portuguese). (default\: from the locale)]:en|pt:{__otc-prompt_complete "${___lang[@]}"}'
        '--speech[How announcements reach you. (default\: auto)]:auto|speechd|espeak|text|none:{__otc-prompt_complete "${___speech[@]}"}'
        '--speech-log[Append every announcement to this file as JSON Lines.]:PATH:_files'
        '--verbosity[How much is said beyond the essentials. (default\: normal)]:terse|normal|verbose:{__otc-prompt_complete "${___verbosity[@]}"}'
        '--doctor[Say how announcements would reach you, and why, then exit.]'
        '--check[Check the submitted code with this shell command before accepting it.]:COMMAND:'
        '--attempts[How many codes --check may reject before exit status 1. (1–99; default\: 3)]:N:'
        '--check-timeout[A check still running after this long is killed and counts as a rejection. (0.001–86400; default\: 30)]:SECONDS:'
        '--timeout[Give up after this long, with exit status 124. (0.001–86400; default\: no limit)]:SECONDS:'
        '--askpass[Read PROMPT as an askpass prompt (code, password or yes/no question), always the last argument.]'
        '--pinentry[Be GnuPG'\''s pinentry\: speak the Assuan protocol on stdin and stdout.]'
        '--stdin[No prompt\: read one line from stdin, check it like a paste, print it.]'
        '--voice[An installed espeak-ng voice (espeak-ng --voices lists them). (default\: the language'\''s voice)]:NAME:'
        '--rate[Speech rate in words per minute. (80–450; default\: 175)]:WPM:'
        '--volume[Volume. (0–200; default\: 100)]:N:'
        '--pitch[Pitch. (0–99; default\: 50)]:N:'
        '--audio-file[Write the speech to this WAV file instead of the sound device.]:PATH:_files -g '\''*.wav'\'''
        '--style[How the field is drawn. (default\: from the terminal)]:line|boxes:{__otc-prompt_complete "${___style[@]}"}'
        '--start-color[Outline colour of the first box. (default\: #3B82F6)]:C:'
        '--end-color[Outline colour of the last box. (default\: #A855F7)]:C:'
        '--placeholder[What an empty box shows\: one printable one-column character. (default\: •)]:CHAR:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'help:Show subcommand help information.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        help)
            "_otc-prompt_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_otc-prompt_help() {
    local -i ret=1
    local -ar arg_specs=(
        '*:subcommands:'
        '--version[Show the version.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

if [[ "${funcstack[1]}" = _otc-prompt ]]; then
    _otc-prompt "${@}"
else
    compdef _otc-prompt otc-prompt
fi
