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
    local -ar ___speech=('espeak' 'text' 'none')
    local -ar ___verbosity=('terse' 'normal' 'verbose')
    local -ar ___style=('line' 'boxes')
    local -ar arg_specs=(
        ':prompt:'
        '(-n --length)'{-n,--length}'[How many characters the code has (1-12).]:length:'
        '--charset[digits; alnum (letters are upper-cased); or any (a masked free-text secret, Enter submits).]:charset:{__otc-prompt_complete "${___charset[@]}"}'
        '--mask[Secure entry\: characters are never shown or spoken, only counted.]'
        '--no-auto-submit[Wait for Enter instead of submitting when the field is full.]'
        '--lang[Language of the prompt\: en or pt (default\: from LC_ALL, LC_MESSAGES, LANG).]:lang:{__otc-prompt_complete "${___lang[@]}"}'
        '--speech[How announcements reach you\: espeak (spoken, the default), text (one line each, for braille and screen readers), none.]:speech:{__otc-prompt_complete "${___speech[@]}"}'
        '--speech-log[Append every announcement to this file as JSON Lines.]:speech-log:_files'
        '--verbosity[terse (no hints), normal (the default) or verbose.]:verbosity:{__otc-prompt_complete "${___verbosity[@]}"}'
        '--check[Check the submitted code with this shell command before accepting it.]:command:'
        '--attempts[How many codes --check may reject before otc-prompt gives up with exit status 1.]:attempts:'
        '--check-timeout[Seconds a check may run before it is killed and counts as a rejection.]:check-timeout:'
        '--timeout[Give up after this many seconds (exit status 124). Time left is spoken at 30 and 10 seconds, and on Ctrl-T.]:timeout:'
        '--askpass[Read PROMPT as an askpass prompt\: a code prompt, a password prompt or a yes/no question.]'
        '--stdin[Do not prompt\: read one line from standard input, check it like a paste (with --charset any, the whole line is the secret), and print it.]'
        '--voice[Any installed espeak-ng voice (espeak-ng --voices lists them). Default\: the language'\''s voice.]:voice:'
        '--rate[Speech rate in words per minute (80-450).]:rate:'
        '--volume[Volume (0-200, default 100).]:volume:'
        '--pitch[Pitch (0-99, default 50).]:pitch:'
        '--audio-file[Write the speech to this WAV file instead of the sound device.]:audio-file:_files -g '\''*.wav'\'''
        '--style[line (plain) or boxes (one cell per character). Default\: boxes on a colour terminal, else line.]:style:{__otc-prompt_complete "${___style[@]}"}'
        '--start-color[Outline colour of the first box\: #RRGGBB or a name.]:start-color:'
        '--end-color[Outline colour of the last box\: #RRGGBB or a name.]:end-color:'
        '--placeholder[What an empty box shows\: one character, e.g. • (default), _ or a space.]:placeholder:'
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
