/// How the WAV sink writes the `--audio-file`: the program hands it the host module's bounded writes
/// (`OutputFile.write`), so that the host module alone waits on a descriptor.
public struct AudioFileWriter: Sendable {
    /// How long one write waits for a pipe's or socket's reader to make room; nil for a file or device,
    /// whose writes block.
    public var patience: Duration?
    /// Writes every byte: nil when all went out, else the errno that stopped it (ETIMEDOUT: the reader made no
    /// room within `patience`).
    public var write: @Sendable (UnsafeRawBufferPointer) -> Int32?

    public init(patience: Duration?, write: @escaping @Sendable (UnsafeRawBufferPointer) -> Int32?) {
        self.patience = patience
        self.write = write
    }
}
