#compdef otc-prompt
# zsh completion for otc-prompt, generated from its option declarations by otc-prompt-docs (make docs).

_otc-prompt() {
    _arguments -S : \
        '(-n --length)'{-n,--length=}'[How many characters the code has. (1–12; default\: 6)]:N: ' \
        '--charset=[Which characters the code may hold. (default\: digits)]:digits|alnum|any:(digits alnum any)' \
        '--mask[Secure entry\: characters are never shown, spoken or logged, only counted.]' \
        '--no-auto-submit[Wait for Enter instead of submitting a full field.]' \
        '--lang=[Language of the words\: a tag or a locale name (de, fr_CA.UTF-8, pt for Portugal, pt-BR, pt_BR). (default\: from the locale)]:en|de|es|fr|pt|pt-BR:(en de es fr pt pt-BR)' \
        '--speech=[How announcements reach you. (default\: auto)]:auto|speechd|espeak|text|none:(auto speechd espeak text none)' \
        '--braille=[Whether the field is shown on your braille display, through BrlAPI. (default\: auto)]:auto|brlapi|none:(auto brlapi none)' \
        '--speech-log=[Append every announcement to this file as JSON Lines.]:PATH:_files' \
        '--verbosity=[How much is said beyond the essentials. (default\: normal)]:terse|normal|verbose:(terse normal verbose)' \
        '--spell=[How letters are said. (default\: plain)]:plain|phonetic:(plain phonetic)' \
        '--escape-delay=[How long a lone Esc waits for the rest of an arrow or function key. (0.001–5; default\: 0.025 here, 0.3 over a link)]:SECONDS: ' \
        '--doctor[Say how announcements would reach you, and why, then exit.]' \
        '--check=[Check the submitted code with this shell command before accepting it.]:COMMAND: ' \
        '--attempts=[How many codes --check may reject before exit status 1. (1–99; default\: 3)]:N: ' \
        '--check-timeout=[A check still running after this long is killed and counts as a rejection. (0.001–86400; default\: 30)]:SECONDS: ' \
        '--timeout=[Give up after this long, with exit status 124. (0.001–86400; default\: no limit)]:SECONDS: ' \
        '--askpass[Read PROMPT as an askpass prompt (code, password or yes/no question), always the last argument.]' \
        '--pinentry[Be GnuPG'\''s pinentry\: speak the Assuan protocol on stdin and stdout.]' \
        '--cryptsetup[Be cryptsetup'\''s keyscript\: ask for the disk passphrase at boot.]' \
        '--boot-cue=[Play one of the disk prompt'\''s tones on the PC speaker, then exit. (default\: none)]:first|retry|pin|unlocked:(first retry pin unlocked)' \
        '--stdin[No prompt\: read one line from stdin, check it like a paste, print it.]' \
        '--agent[Be a password agent\: ask the requests of systemd-ask-password, one at a time.]' \
        '--query[With --agent\: ask the requests waiting now, then exit.]' \
        '--polkit-agent[Be polkit'\''s authentication agent\: ask pkexec'\''s, udisksctl'\''s and run0'\''s passwords at this terminal.]' \
        '--process=[With --polkit-agent\: answer the requests of this process only, as pkttyagent --process does, and end when it ends. (1–2147483647; default\: the login session)]:N: ' \
        '--agent-directory=[With --agent\: watch these directories instead, separated by \:. (default\: the system'\''s (as root) and the user'\''s)]:DIR\[\:DIR\]: ' \
        '--agent-echo-user-requests[With --agent\: show and speak what you type for your own programs'\'' requests that ask for visible text.]' \
        '--touch-watch[Say "Touch your security key." whenever a security key waits for a touch.]' \
        '--touch-cue=[With --touch-watch\: words, or a short tone in their place. (default\: words)]:words|tone:(words tone)' \
        '--touch-says-done[With --touch-watch\: say "Done." when the key no longer waits.]' \
        '--voice=[An installed espeak-ng voice (espeak-ng --voices lists them). (default\: the language'\''s voice)]:NAME: ' \
        '--rate=[Speech rate in words per minute. (80–450; default\: 175)]:WPM: ' \
        '--volume=[Volume. (0–200; default\: 100)]:N: ' \
        '--pitch=[Pitch. (0–99; default\: 50)]:N: ' \
        '--audio-file=[Write the speech to this WAV file instead of the sound device.]:PATH:_files -g "*.(wav)"' \
        '--style=[How the field is drawn. (default\: from the terminal)]:line|boxes:(line boxes)' \
        '--start-color=[Outline colour of the first box. (default\: #3B82F6)]:C: ' \
        '--end-color=[Outline colour of the last box. (default\: #A855F7)]:C: ' \
        '--placeholder=[What an empty box shows\: one printable one-column character. (default\: •)]:CHAR: ' \
        '--version[Show the version.]' \
        '(-h --help)'{-h,--help}'[Show this help.]' \
        '::PROMPT: '
}

if [[ ${funcstack[1]} == _otc-prompt ]]; then
    _otc-prompt "$@"
else
    compdef _otc-prompt otc-prompt
fi
