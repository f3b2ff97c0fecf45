/// What a person sees of `screen`: the text without CSI and OSC escape sequences (whose parameters are digits
/// too, and would otherwise look like a typed code).
public func visibleText(_ screen: String) -> String {
    var visible = ""
    var scalars = screen.unicodeScalars.makeIterator()
    while let scalar = scalars.next() {
        guard scalar == "\u{1b}" else {
            visible.unicodeScalars.append(scalar)
            continue
        }
        switch scalars.next() {
        case "[": while let byte = scalars.next(), !(0x40...0x7E).contains(byte.value) {}
        case "]": while let byte = scalars.next(), byte != "\u{7}", byte != "\u{1b}" {}
        default: continue
        }
    }
    return visible
}
