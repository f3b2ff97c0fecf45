import OTCPromptCore

/// Every setting of otc-prompt, each declared here once; `all` lists them in the order of `--help` and the docs.
///
/// A setting the user may need in every prompt is also a config key (`inConfigFile`): gpg-agent, ssh, sudo and git
/// run otc-prompt with no options of ours, so the file is the only place those users can set anything. What stays
/// on the command line only says why in its declaration.
public enum Settings {
    // Command line only: the code's length and characters are what the caller asks for, not a preference; a
    // pinentry and an askpass prompt take theirs from the request.
    public static let length = Setting<Int>(
        "length", short: "n", group: .general, "How many characters the code has.",
        domain: .integer(PromptConfiguration.lengthRange), default: 6)
    public static let charset = Setting<CodeCharset>(
        "charset", group: .general, "Which characters the code may hold.",
        details: "`alnum`: letters and digits, case-insensitive, printed upper case; "
            + "`any`: a masked free-text secret of up to 256 printable characters, Enter submits.",
        domain: .choice(), default: .digits)
    public static let mask = Setting<Bool>(
        "mask", group: .general, "Secure entry: characters are never shown, spoken or logged, only counted.",
        domain: .flag, default: false, inConfigFile: true)
    public static let noAutoSubmit = Setting<Bool>(
        "no-auto-submit", group: .general, "Wait for Enter instead of submitting a full field.", domain: .flag,
        default: false, inConfigFile: true)
    public static let language = Setting<Language>(
        "lang", group: .general,
        "Language of the words: a tag or a locale name (`de`, `fr_CA.UTF-8`, `pt` for Portugal, `pt-BR`, `pt_BR`).",
        details: "Without it, the locale decides as gettext's does: the first supported language of `LANGUAGE` (a "
            + "colon list, ignored when the locale is `C` or `POSIX`), then the first of `LC_ALL`, `LC_MESSAGES`, "
            + "`LANG` that is set; a region without a catalog of its own takes its language's (`de_AT` is `de`); "
            + "`C`, `POSIX` and a language without a catalog are English.",
        domain: .choice(alias: languageAlias), defaultNote: "from the locale", inConfigFile: true)
    public static let speech = Setting<SpeechChoice>(
        "speech", group: .general, "How announcements reach you.",
        details: "`auto`, decided from the terminal you type on (its login session), not from the caller's "
            + "variables: the first that holds of: when you are at another machine (SSH, mosh, a tmux pane whose "
            + "client you typed on last is there), what you forwarded (`SPEECHD_ADDRESS`: that speech-dispatcher; "
            + "`PULSE_SERVER`: espeak-ng through it), else text, which your own screen reader reads; your own "
            + "speech-dispatcher if it answers; speech-dispatcher started for you when your own screen reader "
            + "(Orca, Fenrir; brltty, Speakup at the console) runs; espeak-ng. Another user's speech-dispatcher or "
            + "PulseAudio is never used. `speechd`: your speech-dispatcher "
            + "(its voice, rate and queue, shared with your screen reader); "
            + "`espeak`: spoken by espeak-ng, falling back to `text` with a one-line notice when there is no "
            + "audio device; `text`: every announcement written as lines, the words that would be spoken with "
            + "identifiers (a fingerprint, a key ID) whole, and the field itself is not drawn; `none`: silent.",
        domain: .choice(), default: .auto, inConfigFile: true)
    public static let braille = Setting<BrailleChoice>(
        "braille", group: .general, "Whether the field is shown on your braille display, through BrlAPI.",
        details: "`auto`: your own brltty (the server `BRLAPI_HOST` names, else its local socket), or the "
            + "system's when you are at this machine (its console, or a terminal of its own display); another user's "
            + "brltty is never used, nor this machine's display when you are elsewhere. The display shows the news "
            + "(\"Code rejected. 2 attempts left.\"), the label and what you typed, with the cursor where the next character "
            + "goes; a masked field is one cell of dots 7 and 8 per character, never the character; Ctrl-R shows "
            + "the code in groups; the display's panning keys move along a long line, and its keyboard types into "
            + "the field. `brlapi`: as `auto`, and a `BRLAPI_HOST` on another machine, whose owner cannot be "
            + "known, is used too; where no display can be used, the opening says so once, with the reason (`auto` "
            + "stays silent); `none`: never. Silent and private: `--speech none --braille auto`.",
        domain: .choice(), default: .auto, inConfigFile: true)
    public static let speechLog = Setting<String>(
        "speech-log", group: .general, "Append every announcement to this file as JSON Lines.",
        details: "**Contains the code unless `--mask`.**", domain: .path(), inConfigFile: true)
    public static let verbosity = Setting<Verbosity>(
        "verbosity", group: .general, "How much is said beyond the essentials.",
        details: "`terse` drops hints; `verbose` adds positions (\"2, 2 of 4\") and the code after \"code complete\".",
        domain: .choice(), default: .normal, inConfigFile: true)
    public static let spell = Setting<Spelling>(
        "spell", group: .general, "How letters are said.",
        details: "`plain`: by their names, and a letter that could be taken for a digit (O, I, L, S, B, Z, G) as "
            + "\"letter O\"; `phonetic`: by the spelling alphabet (Alfa, Bravo, Charlie…). Digits are always just "
            + "digits; in free text an upper-case letter is \"capital A\" (\"capital Alfa\").",
        domain: .choice(), default: .plain, inConfigFile: true)

    // Command line only, with `attempts` and `check-timeout`: a check belongs to the one caller that knows how to
    // verify its code; in the file it would run on every code, sudo's and gpg-agent's included.
    public static let check = Setting<String>(
        "check", group: .logins, "Check the submitted code with this shell command before accepting it.",
        details: "It runs with `/bin/sh -c` and gets the code and a newline on its **stdin** (never in its "
            + "arguments or environment). Exit 0 accepts; anything else rejects, and the first line it wrote to "
            + "stderr is spoken. Its stdout goes to /dev/null.",
        domain: .text(valueName: "COMMAND", allowed: "a shell command"))
    public static let attempts = Setting<Int>(
        "attempts", group: .logins, "How many codes `--check` may reject before exit status \(ExitStatus.rejected).",
        domain: .integer(1...99), default: PromptConfiguration.defaultAttempts)
    public static let checkTimeout = Setting<Duration>(
        "check-timeout", group: .logins,
        "A check still running after this long is killed and counts as a rejection.",
        details: "SIGTERM, then SIGKILL to its process group.", domain: .seconds(), default: .seconds(30))
    // Command line only: a limit belongs to the caller (a pinentry has gpg-agent's SETTIMEOUT); one in the file
    // would end every script's prompt with 124, and the command line could not lift it.
    public static let timeout = Setting<Duration>(
        "timeout", group: .logins,
        "Give up after this long, with exit status \(ExitStatus.timedOut).",
        details: "The time left is spoken at 30 s and 10 s, and on Ctrl-T.", domain: .seconds(), defaultNote: "no limit"
    )
    // `askpass`, `pinentry`, `doctor` and `stdin` are actions, not preferences: command line only, or a config file
    // would turn every prompt into that mode.
    public static let askpass = Setting<Bool>(
        "askpass", group: .logins,
        "Read PROMPT as an askpass prompt (code, password or yes/no question), always the last argument.",
        details: "Write wrappers as "
            + "`otc-prompt --askpass OPTIONS -- \"$@\"`. Automatic when PROMPT is the only argument, stdout is not a "
            + "terminal (as ssh, sudo and git call it) and `SSH_ASKPASS`, `SUDO_ASKPASS` or `GIT_ASKPASS` names "
            + "otc-prompt itself or `SSH_ASKPASS_PROMPT` is set.",
        domain: .flag, default: false)
    public static let pinentry = Setting<Bool>(
        "pinentry", group: .logins, "Be GnuPG's pinentry: speak the Assuan protocol on stdin and stdout.",
        details: "Also when run as `pinentry-otc`. In `~/.gnupg/gpg-agent.conf`: "
            + "`pinentry-program /usr/local/bin/pinentry-otc`.",
        domain: .flag, default: false)
    public static let cryptsetup = Setting<Bool>(
        "cryptsetup", group: .logins, "Be cryptsetup's keyscript: ask for the disk passphrase at boot.",
        details: "The disk and the try come from the `CRYPTTAB_*` variables cryptroot sets (\"Unlock disk sda2\"; "
            + "on a retry, \"Wrong passphrase, try 2 of 3\" first); a masked field, the passphrase on stdout. "
            + "Run by the keyscript `/lib/cryptsetup/scripts/otc-prompt` (docs/user-guide.md).",
        domain: .flag, default: false)
    // An action of the boot scripts: command line only.
    public static let bootCue = Setting<BootCue>(
        "boot-cue", group: .logins, "Play one of the disk prompt's tones on the PC speaker, then exit.",
        details: "`first` (the question), `retry` (after a wrong answer), `pin` (a security token's or the TPM's PIN), "
            + "`unlocked`. The prompt at boot plays the first three by itself when no sound card speaks; the boot "
            + "scripts play `unlocked` once the disks are open (docs/user-guide.md). Through the virtual console "
            + "(`KDMKTONE`, as root): exit status 74 when there is none.",
        domain: .choice(), defaultNote: "none")
    // The agent is an action, and the directories it watches belong to the machine's queriers: command line only.
    public static let agent = Setting<Bool>(
        "agent", group: .logins, "Be a password agent: ask the requests of systemd-ask-password, one at a time.",
        details: "Watches `/run/systemd/ask-password` (as root), `$XDG_RUNTIME_DIR/systemd/ask-password` and "
            + "otc-prompt's own `$XDG_RUNTIME_DIR/otc-prompt/ask`; asks each request in turn, oldest first, and "
            + "answers it; waits for the next. Esc or Ctrl-C cancels the request asked and the agent goes on; on its "
            + "wait, Esc, Ctrl-C or Ctrl-D stops the agent.",
        domain: .flag, default: false)
    public static let query = Setting<Bool>(
        "query", group: .logins, "With `--agent`: ask the requests waiting now, then exit.", domain: .flag,
        default: false)
    public static let agentDirectory = Setting<String>(
        "agent-directory", group: .logins, "With `--agent`: watch these directories instead, separated by `:`.",
        details: "Each must belong to the user running the agent (root's for `/run/systemd/ask-password`) and be "
            + "writable by no one else; so must every directory above it (root's or that user's; a sticky one of "
            + "root's, as /tmp, may be writable), with no symbolic link on the way.",
        domain: .text(valueName: "DIR[:DIR]", allowed: "absolute directory paths separated by \":\"") {
            !$0.isEmpty && $0.split(separator: ":").allSatisfy { $0.hasPrefix("/") }
        }, defaultNote: "the system's (as root) and the user's")
    public static let polkitAgent = Setting<Bool>(
        "polkit-agent", group: .logins,
        "Be polkit's authentication agent: ask pkexec's, udisksctl's and run0's passwords at this terminal.",
        details: "Registers with polkitd for the login session (else for the parent process) and asks each request "
            + "when it comes, taking the terminal only then; Esc cancels the request and the agent goes on.",
        domain: .flag, default: false)
    public static let process = Setting<Int>(
        "process", group: .logins,
        "With `--polkit-agent`: answer the requests of this process only, as "
            + "`pkttyagent --process` does, and end when it ends.",
        domain: .integer(1...Int(Int32.max)), defaultNote: "the login session")
    // A preference of the agent's user: in the file too.
    public static let agentEchoUserRequests = Setting<Bool>(
        "agent-echo-user-requests", group: .logins,
        "With `--agent`: show and speak what you type for your own programs' requests that ask for visible text.",
        details: "A request from a directory of yours, not root's, that asks for visible text (`Echo=1`) is masked "
            + "without it: any program of yours could claim that a passphrase is not secret, and have it read "
            + "aloud. The system's requests are asked as they say.",
        domain: .flag, default: false, inConfigFile: true)
    public static let touchWatch = Setting<Bool>(
        "touch-watch", group: .logins, "Say \"Touch your security key.\" whenever a security key waits for a touch.",
        details: "Runs until ended (SIGTERM, Ctrl-C), watching pam_u2f's pending file "
            + "(`$XDG_RUNTIME_DIR/pam-u2f-authpending`, its `authpending_file`) and yubikey-touch-detector's socket "
            + "(`$XDG_RUNTIME_DIR/yubikey-touch-detector.socket`); each wait is said once, on braille too, and "
            + "nothing more until the next. Idle, it holds no audio device and never wakes. Shipped as the user "
            + "unit otc-prompt-touch-watch.service, not enabled.",
        domain: .flag, default: false)
    // The user's preferences for the watcher: in the file too, which is where a user unit's are set.
    public static let touchCue = Setting<TouchCue>(
        "touch-cue", group: .logins, "With `--touch-watch`: words, or a short tone in their place.",
        details: "`tone`: two short rising notes on the audio device instead of the words (which are still shown, "
            + "and written as a line where there is no voice).",
        domain: .choice(), default: .words, inConfigFile: true)
    public static let touchSaysDone = Setting<Bool>(
        "touch-says-done", group: .logins, "With `--touch-watch`: say \"Done.\" when the key no longer waits.",
        domain: .flag, default: false, inConfigFile: true)
    public static let doctor = Setting<Bool>(
        "doctor", group: .general, "Say how announcements would reach you, and why, then exit.",
        details: "Which speech `auto` chooses and why, whether speech-dispatcher answers and with which module, "
            + "whether an audio device answers, how long a lone Esc waits here and why (and whether tmux holds "
            + "every Esc), and which config file was read: all on the screen; spoken is its first line, then Enter "
            + "says the rest and Escape ends. Run it when you hear nothing.",
        domain: .flag, default: false)
    public static let stdin = Setting<Bool>(
        "stdin", group: .logins,
        "No prompt: read one line from stdin, check it like a paste, print it.",
        details: "With `--charset any` the whole line is the secret.", domain: .flag, default: false)

    public static let voice = Setting<String>(
        "voice", group: .voice, "An installed espeak-ng voice (`espeak-ng --voices` lists them).",
        domain: .text(valueName: "NAME", allowed: "a voice name such as \"en-us\"", isValid: isVoiceName),
        defaultNote: "the language's voice", inConfigFile: true)
    public static let rate = Setting<Int>(
        "rate", group: .voice, "Speech rate in words per minute.", domain: .integer(80...450, valueName: "WPM"),
        default: 175, inConfigFile: true)
    public static let volume = Setting<Int>(
        "volume", group: .voice, "Volume.", domain: .integer(0...200), default: 100, inConfigFile: true)
    public static let pitch = Setting<Int>(
        "pitch", group: .voice, "Pitch.", domain: .integer(0...99), default: 50, inConfigFile: true)
    public static let audioFile = Setting<String>(
        "audio-file", group: .voice, "Write the speech to this WAV file instead of the sound device.",
        details: "**Contains the code unless `--mask`.**", domain: .path(extensions: ["wav"]), inConfigFile: true)

    public static let escapeDelay = Setting<Duration>(
        "escape-delay", group: .general, "How long a lone Esc waits for the rest of an arrow or function key.",
        details: "Esc cancels only after this long without more bytes. Unset, it is chosen from where you are "
            + "(`--doctor` says which and why): 0.025 s at a terminal of this machine, which writes each key at "
            + "once; 0.3 s over SSH or mosh, on a serial line, or where that is not known. A link seen to split "
            + "keys makes it grow, up to 1 s, by itself; set it higher for slower links (a satellite hop). "
            + "Bash's readline waits 0.5 s (`keyseq-timeout`).",
        domain: .seconds(maximum: 5), defaultNote: "0.025 here, 0.3 over a link", inConfigFile: true)

    public static let style = Setting<FieldStyle>(
        "style", group: .appearance, "How the field is drawn.",
        details: "`line`: the label and the characters as typed; `boxes`: one outlined cell per character. "
            + "Without it: boxes on a terminal with 256 colours or more and a UTF-8 locale (and no `NO_COLOR`), else "
            + "line. `TERM=dumb` and `--speech text` override any style, and so does `ACCESSIBLE` (huh's and gum's "
            + "variable) when set to anything but empty, `0`, `false` or `no`: plain lines, appended, for a screen "
            + "reader to read one by one, and no questions to the terminal.",
        domain: .choice(), defaultNote: "from the terminal",
        inConfigFile: true)
    public static let startColor = Setting<Color>(
        "start-color", group: .appearance, "Outline colour of the first box.", domain: .color,
        default: BoxesStyle.defaultStartColor, inConfigFile: true)
    public static let endColor = Setting<Color>(
        "end-color", group: .appearance, "Outline colour of the last box.", domain: .color,
        default: BoxesStyle.defaultEndColor, inConfigFile: true)
    public static let placeholder = Setting<Character>(
        "placeholder", group: .appearance, "What an empty box shows: one printable one-column character.",
        domain: SettingDomain(
            valueName: "CHAR",
            allowed: "one printable character one column wide, such as _ or a space "
                + "(not a combining mark, a zero-width or a wide character)",
            fromText: BoxesStyle.placeholder(from:), describe: { String($0) }),
        default: BoxesStyle.defaultPlaceholder, inConfigFile: true)

    /// Every setting, in the order of `--help` and the docs.
    public static let all: [any AnySetting] = [
        length, charset, mask, noAutoSubmit, language, speech, braille, speechLog, verbosity, spell, escapeDelay,
        doctor, check, attempts, checkTimeout, timeout, askpass, pinentry, cryptsetup, bootCue, stdin, agent, query,
        polkitAgent, process,
        agentDirectory, agentEchoUserRequests, touchWatch, touchCue, touchSaysDone,
        voice, rate, volume, pitch, audioFile,
        style, startColor, endColor, placeholder,
    ]

    /// A tag or a locale name, matched as the environment's locale is: "pt", "PT", "pt-BR", "pt_BR.UTF-8".
    @Sendable static func languageAlias(_ name: String) -> Language? {
        Language.matching(name)
    }

    /// espeak-ng voice names are short, printable and without spaces ("en-us", "pt-br", "mb-en1", "en+f3").
    @Sendable static func isVoiceName(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.count <= 64
            && name.unicodeScalars.allSatisfy {
                $0.value > 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value)
            }
    }
}

/// How announcements reach the user; `auto` picks for them.
public enum SpeechChoice: String, CaseIterable, Sendable {
    case auto, speechd, espeak, text, none
}

extension SettingDomain where Value == Color {
    /// `#RRGGBB` or a colour name.
    public static var color: SettingDomain {
        SettingDomain(
            valueName: "C", allowed: "a colour: #RRGGBB or a name such as blue", fromText: Color.parse,
            describe: \.hex)
    }
}
