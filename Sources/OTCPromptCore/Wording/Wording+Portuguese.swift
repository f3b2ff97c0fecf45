/// Brazilian Portuguese.
extension Phrases {
    static let portuguese: Phrases = Phrases(
        defaultLabel: "Código de verificação",
        empty: "vazio",
        position: { count, length in "\(count) de \(length)" },
        entered: { count, length in "\(count) de \(length) " + (count == 1 ? "digitado" : "digitados") },
        enteredFree: { count in "\(count) " + (count == 1 ? "digitado" : "digitados") },
        missing: { count in count == 1 ? "falta 1" : "faltam \(count)" },
        kind: portugueseKind,
        typeHint: { charset, kind, autoSubmit in
            guard kind == .code else { return "Digite e pressione Enter." }
            let what =
                switch charset {
                case .digits: "os dígitos"
                case .alnum: "as letras e os dígitos"
                case .any: "os caracteres"
                }
            return autoSubmit ? "Digite \(what)." : "Digite \(what) e pressione Enter."
        },
        readBackHint: { mask in mask ? "Control R diz quantos foram digitados" : "Control R lê o código" },
        helpHint: "ponto de interrogação para ajuda",
        keys: { mask in
            "Backspace apaga o último, Control U limpa, Control R "
                + (mask ? "diz quantos foram digitados" : "lê o código") + ", Enter envia, Esc cancela."
        },
        redrawKey: "Control L redesenha a linha.",
        bullet: "marcador",
        deleted: "apagado",
        cleared: "limpo",
        filled: "código preenchido",
        alreadyFull: "código já preenchido",
        pressEnter: "pressione Enter",
        complete: "código completo",
        submitted: "enviado",
        restDidNotFit: "o resto não coube",
        timeLeftKey: "Control T diz o tempo restante.",
        allEntered: { _ in "Todos." },
        cancelled: "cancelado",
        notAllowed: { character in
            guard let character else { return "caractere não permitido" }
            let (name, feminine) = portugueseName(of: character)
            return name + (feminine ? " não permitida" : " não permitido")
        },
        only: { charset in
            switch charset {
            case .digits: "apenas dígitos"
            case .alnum: "apenas letras e dígitos"
            case .any: "apenas caracteres visíveis"
            }
        },
        pasted: "colado",
        foundInPaste: "código encontrado no texto colado",
        pasteRejected: { kind in
            var plain = kind
            plain.mask = false
            return "colagem recusada, nenhum " + portugueseKind(plain) + " encontrado"
        },
        nothingPasted: "nada colado",
        symbolName: { character in portugueseSymbolNames[character]?.0 },
        textFull: { length in "cheio, no máximo \(length)" },
        textPasteRejected: "colagem recusada, contém quebras de linha ou caracteres de controle",
        outcome: portugueseOutcome,
        speechFallback: portugueseSpeechFallback,
        question: portugueseQuestion
    )

    static let portugueseOutcome = OutcomePhrases(
        checking: "verificando",
        accepted: { kind in kind == .code ? "código aceito" : "aceito" },
        rejected: { kind in kind == .code ? "código recusado" : "recusado" },
        attemptsLeft: { count in
            switch count {
            case ...0: "Nenhuma tentativa restante"
            case 1: "Resta 1 tentativa"
            default: "Restam \(count) tentativas"
            }
        },
        typeAgain: { kind in kind == .code ? "Digite um novo código." : "Digite novamente." },
        newAttempt: "Nova tentativa",
        checkTimedOut: "a verificação não respondeu a tempo",
        checkCouldNotRun: "a verificação não pôde ser executada",
        timeLeft: { duration in
            var parts: [String] = []
            if duration.minutes > 0 { parts.append(duration.minutes == 1 ? "1 minuto" : "\(duration.minutes) minutos") }
            if duration.seconds > 0 || parts.isEmpty {
                parts.append(duration.seconds == 1 ? "1 segundo" : "\(duration.seconds) segundos")
            }
            let singular =
                parts.count == 1 && (duration.minutes == 1 || (duration.minutes == 0 && duration.seconds == 1))
            return (duration.isApproximate ? "cerca de " : "") + parts.joined(separator: " e ")
                + (singular ? " restante" : " restantes")
        },
        noTimeLimit: "sem limite de tempo",
        timeUp: "tempo esgotado",
        yes: "sim",
        no: "não",
        yesOrNo: "sim ou não",
        confirmHow: { acceptsFingerprint in
            acceptsFingerprint
                ? "Digite a palavra inteira, sim ou não, ou a impressão digital da chave e pressione Enter."
                : "Digite a palavra inteira, sim ou não, e pressione Enter."
        },
        notAnAnswer: "Não é uma resposta.",
        answerChoices: { acceptsFingerprint in acceptsFingerprint ? "sim/não/impressão digital" : "sim/não" },
        typed: "digitado",
        fingerprintSent: "impressão digital enviada",
        noticeHint: "Nada a digitar. Esc fecha este aviso.",
        noticeClosed: "fechado",
        previousAnswerNotAccepted: "A resposta anterior não foi aceita.",
        characterNotRead:
            "Um caractere não pôde ser lido e não foi adicionado. Verifique o conjunto de caracteres do terminal.",
        submitWithoutLostCharacter:
            "Um caractere digitado não pôde ser lido e está faltando. Enter de novo envia sem ele; Control U limpa.",
        configFileTooSlow: { file, seconds in
            "O arquivo de configuração \(file) não respondeu em \(seconds) \(seconds == 1 ? "segundo" : "segundos"); "
                + "usando os valores padrão."
        },
        // Ctrl-Z that cannot stop the prompt.
        cannotSuspendWhileCallerWaits:
            "Este pedido não pode ser suspenso enquanto o gpg-agent espera por ele; o que você digitou foi mantido.",
        cannotSuspendHere:
            "Este pedido não pode ser suspenso aqui: nada poderia retomá-lo. O que você digitou foi mantido."
    )

    // The question's answer words, a pinentry notice, gpg's labels, a leftover line dropped.
    static let portugueseQuestion = QuestionPhrases(
        yesWords: ["sim"],
        noWords: ["não", "nao"],
        leftoverIgnored: "Digitado cedo demais, ignorado. Digite de novo.",
        noticeEnterHint: "Pressione Enter para continuar.",
        noticeTaken: "OK",
        choices: "Opções",
        labelOr: { label, word in "\(label), ou \(word)" },
        escapeKey: "Esc",
        labelledHow: "Digite uma opção ou a sua palavra e pressione Enter."
    )

    /// "código de 6 dígitos", "código oculto de 1 caractere", "texto secreto".
    static func portugueseKind(_ kind: FieldDescription) -> String {
        guard kind.kind == .code else { return kind.mask ? "texto secreto" : "texto" }
        let unit =
            kind.charset == .digits
            ? (kind.length == 1 ? "dígito" : "dígitos") : (kind.length == 1 ? "caractere" : "caracteres")
        return (kind.mask ? "código oculto" : "código") + " de \(kind.length) \(unit)"
    }

    /// A rejected character as it is said, and whether its name is feminine (for agreement:
    /// "letra X não permitida", "hífen não permitido").
    static func portugueseName(of character: Character) -> (Utterance, Bool) {
        if character.isASCII && character.isLetter { return ("letra " + .characters([[character.uppercased()]]), true) }
        if character.isASCII && character.isNumber { return ("dígito " + .characters([[String(character)]]), false) }
        if let (name, feminine) = portugueseSymbolNames[character] { return (Utterance(name), feminine) }
        return ("caractere " + .characters([[String(character)]]), false)
    }

    private static let portugueseSymbolNames: [Character: (String, Bool)] = [
        " ": ("espaço", false), ".": ("ponto", false), ",": ("vírgula", true), "-": ("hífen", false),
        "_": ("sublinhado", false), "/": ("barra", true), "\\": ("barra invertida", true), "+": ("mais", false),
        "*": ("asterisco", false), "#": ("cerquilha", true), "@": ("arroba", true),
        "!": ("ponto de exclamação", false), "'": ("apóstrofo", false), "\"": ("aspas", true),
        ":": ("dois-pontos", false), ";": ("ponto e vírgula", false), "(": ("abre parêntese", false),
        ")": ("fecha parêntese", false), "[": ("abre colchete", false), "]": ("fecha colchete", false),
        "{": ("abre chave", false), "}": ("fecha chave", false), "<": ("menor que", false),
        ">": ("maior que", false), "=": ("igual", false), "&": ("e comercial", false), "%": ("por cento", false),
        "$": ("cifrão", false), "~": ("til", false), "^": ("circunflexo", false), "|": ("barra vertical", true),
        "`": ("crase", true), "?": ("ponto de interrogação", false),
    ]

    static let portugueseSpeechFallback = SpeechFallbackPhrases(
        unavailable: { why in "fala indisponível: " + why },
        noAudioDevice: "nenhum dispositivo de áudio",
        audioServerDidNotAnswer: { server, limit in "o servidor de áudio (\(server)) não respondeu em \(limit)" },
        audioDeviceNotReady: { limit in "o dispositivo de áudio não iniciou em \(limit)" },
        speechDispatcherStopped: "o speech-dispatcher parou de responder",
        audioFileStopped: { path, why in "o arquivo de áudio \(path) não aceita mais áudio (\(why))" },
        shownAsText: "anúncios mostrados como texto"
    )
}

extension DiskUnlockPhrases {
    static let portuguese = DiskUnlockPhrases(
        unlockDisk: { disk in disk.map { "Desbloquear o disco \($0)" } ?? "Desbloquear o disco" },
        wrongPassphrase: { attempt, maximum in
            "Frase secreta errada, tentativa \(attempt)" + (maximum.map { " de \($0)" } ?? "") + "."
        }
    )
}
