function __otc-prompt_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __otc-prompt_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __otc-prompt_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __otc-prompt_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __otc-prompt_parse_tokens -S
    set -l unparsed_tokens (__otc-prompt_tokens -pc)
    switch $unparsed_tokens[1]
    case 'otc-prompt'
        __otc-prompt_parse_subcommand 1 'n/length=' 'charset=' 'mask' 'no-auto-submit' 'lang=' 'speech=' 'speech-log=' 'verbosity=' 'doctor' 'check=' 'attempts=' 'check-timeout=' 'timeout=' 'askpass' 'pinentry' 'stdin' 'voice=' 'rate=' 'volume=' 'pitch=' 'audio-file=' 'style=' 'start-color=' 'end-color=' 'placeholder=' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'help'
            __otc-prompt_parse_subcommand -r 1 'version'
        end
    end
end

function __otc-prompt_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __otc-prompt_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __otc-prompt_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __otc-prompt_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__otc-prompt_tokens -p)
    if test -z "$(__otc-prompt_tokens -t)"
        set -l index (count (__otc-prompt_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'otc-prompt' -f
complete -c 'otc-prompt' -n '__otc-prompt_should_offer_completions_for_flags_or_options "otc-prompt" length n' -s 'n' -l 'length' -d 'How many characters the code has. (1–12; default: 6)' -rfka ''
complete -c 'otc-prompt' -n '__otc-prompt_should_offer_completions_for_flags_or_options "otc-prompt" charset' -l 'charset' -d 'Which characters the code may hold. (default: digits)' -rfka 'digits alnum any'
complete -c 'otc-prompt' -n '__otc-prompt_should_offer_completions_for_flags_or_options "otc-prompt" mask' -l 'mask' -d 'Secure entry: characters are never shown, spoken or logged, only counted.'
complete -c 'otc-prompt' -n '__otc-prompt_should_offer_completions_for_flags_or_options "otc-prompt" no-auto-submit' -l 'no-auto-submit' -d 'Wait for Enter instead of submitting a full field.'
complete -c 'otc-prompt' -n '__otc-prompt_should_offer_completions_for_flags_or_options "otc-prompt" lang' -l 'lang' -d 'Language of the words (pt… gives Brazilian Portuguese). (default: from the locale)' -rfka 'en pt'
complete -c 'otc-prompt' -n '__otc-prompt_should_offer_completions_for_flags_or_options "otc-prompt" speech' -l 'speech' -d 'How announcements reach you. (default: auto)' -rfka 'auto speechd espeak text none'
complete -c 'otc-prompt' -n '__otc-prompt_should_offer_completions_for_flags_or_options "otc-prompt" speech-log' -l 'speech-log' -d 'Append every announcement to this file as JSON Lines.' -rF
complete -c 'otc-prompt' -n '__otc-prompt_should_offer_completions_for_flags_or_options "otc-prompt" verbosity' -l 'verbosity' -d 'How much is said beyond the essentials. (default: normal)' -rfka 'terse normal verbose'
complete -c 'otc-prompt' -n '__otc-prompt_should_offer_completions_for_flags_or_options "otc-prompt" doctor' -l 'doctor' -d 'Say how announcements would reach you, and why, then exit.'
complete -c 'otc-prompt' -n '__otc-prompt_should_offer_completions_for_flags_or_options "otc-prompt" check' -l 'check' -d 'Check the submitted code with this shell command before accepting it.' -rfka ''
complete -c 'otc-prompt' -n '__otc-prompt_should_offer_completions_for_flags_or_options "otc-prompt" attempts' -l 'attempts' -d 'How many codes --check may reject before exit status 1. (1–99; default: 3)' -rfka ''
complete -c 'otc-prompt' -n '__otc-prompt_should_offer_completions_for_flags_or_options "otc-prompt" check-timeout' -l 'check-timeout' -d 'A check still running after this long is killed and counts as a rejection. (0.001–86400; default: 30)' -rfka ''
complete -c 'otc-prompt' -n '__otc-prompt_should_offer_completions_for_flags_or_options "otc-prompt" timeout' -l 'timeout' -d 'Give up after this long, with exit status 124. (0.001–86400; default: no limit)' -rfka ''
complete -c 'otc-prompt' -n '__otc-prompt_should_offer_completions_for_flags_or_options "otc-prompt" askpass' -l 'askpass' -d 'Read PROMPT as an askpass prompt (code, password or yes/no question), always the last argument.'
complete -c 'otc-prompt' -n '__otc-prompt_should_offer_completions_for_flags_or_options "otc-prompt" pinentry' -l 'pinentry' -d 'Be GnuPG\'s pinentry: speak the Assuan protocol on stdin and stdout.'
complete -c 'otc-prompt' -n '__otc-prompt_should_offer_completions_for_flags_or_options "otc-prompt" stdin' -l 'stdin' -d 'No prompt: read one line from stdin, check it like a paste, print it.'
complete -c 'otc-prompt' -n '__otc-prompt_should_offer_completions_for_flags_or_options "otc-prompt" voice' -l 'voice' -d 'An installed espeak-ng voice (espeak-ng --voices lists them). (default: the language\'s voice)' -rfka ''
complete -c 'otc-prompt' -n '__otc-prompt_should_offer_completions_for_flags_or_options "otc-prompt" rate' -l 'rate' -d 'Speech rate in words per minute. (80–450; default: 175)' -rfka ''
complete -c 'otc-prompt' -n '__otc-prompt_should_offer_completions_for_flags_or_options "otc-prompt" volume' -l 'volume' -d 'Volume. (0–200; default: 100)' -rfka ''
complete -c 'otc-prompt' -n '__otc-prompt_should_offer_completions_for_flags_or_options "otc-prompt" pitch' -l 'pitch' -d 'Pitch. (0–99; default: 50)' -rfka ''
complete -c 'otc-prompt' -n '__otc-prompt_should_offer_completions_for_flags_or_options "otc-prompt" audio-file' -l 'audio-file' -d 'Write the speech to this WAV file instead of the sound device.' -rfa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'wav\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'otc-prompt' -n '__otc-prompt_should_offer_completions_for_flags_or_options "otc-prompt" style' -l 'style' -d 'How the field is drawn. (default: from the terminal)' -rfka 'line boxes'
complete -c 'otc-prompt' -n '__otc-prompt_should_offer_completions_for_flags_or_options "otc-prompt" start-color' -l 'start-color' -d 'Outline colour of the first box. (default: #3B82F6)' -rfka ''
complete -c 'otc-prompt' -n '__otc-prompt_should_offer_completions_for_flags_or_options "otc-prompt" end-color' -l 'end-color' -d 'Outline colour of the last box. (default: #A855F7)' -rfka ''
complete -c 'otc-prompt' -n '__otc-prompt_should_offer_completions_for_flags_or_options "otc-prompt" placeholder' -l 'placeholder' -d 'What an empty box shows: one printable one-column character. (default: •)' -rfka ''
complete -c 'otc-prompt' -n '__otc-prompt_should_offer_completions_for_flags_or_options "otc-prompt" version' -l 'version' -d 'Show the version.'
complete -c 'otc-prompt' -n '__otc-prompt_should_offer_completions_for_flags_or_options "otc-prompt" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'otc-prompt' -n '__otc-prompt_should_offer_completions_for_positional "otc-prompt" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'otc-prompt' -n '__otc-prompt_should_offer_completions_for_flags_or_options "otc-prompt help" version' -l 'version' -d 'Show the version.'
