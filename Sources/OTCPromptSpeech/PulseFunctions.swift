import CPulseAudio
import OTCPromptSystem

/// libpulse's asynchronous client functions that `PulseAudioSink` calls, resolved once, the first time a
/// stream is opened (the warm-up's `PreparedStream`, on a thread of its own beside espeak-ng's).
struct PulseFunctions: @unchecked Sendable {
    static let soname = "libpulse.so.0"
    static let loaded = Result { () throws(SharedLibraryError) in try PulseFunctions(SharedLibrary.open(soname)) }
        .mapError(SpeechError.init)

    let mainloopNew: otc_pa_threaded_mainloop_new
    let mainloopFree: otc_pa_threaded_mainloop_free
    let mainloopStart: otc_pa_threaded_mainloop_start
    let mainloopStop: otc_pa_threaded_mainloop_stop
    let mainloopLock: otc_pa_threaded_mainloop_lock
    let mainloopUnlock: otc_pa_threaded_mainloop_unlock
    let mainloopWait: otc_pa_threaded_mainloop_wait
    let mainloopSignal: otc_pa_threaded_mainloop_signal
    let mainloopGetAPI: otc_pa_threaded_mainloop_get_api
    let contextNew: otc_pa_context_new
    let contextUnref: otc_pa_context_unref
    let contextSetStateCallback: otc_pa_context_set_state_callback
    let contextErrno: otc_pa_context_errno
    let contextGetState: otc_pa_context_get_state
    let contextConnect: otc_pa_context_connect
    let contextDisconnect: otc_pa_context_disconnect
    let contextRttimeNew: otc_pa_context_rttime_new
    let contextRttimeRestart: otc_pa_context_rttime_restart
    let rtclockNow: otc_pa_rtclock_now
    let streamNew: otc_pa_stream_new
    let streamUnref: otc_pa_stream_unref
    let streamGetState: otc_pa_stream_get_state
    let streamSetStateCallback: otc_pa_stream_set_state_callback
    let streamSetUnderflowCallback: otc_pa_stream_set_underflow_callback
    let streamConnectPlayback: otc_pa_stream_connect_playback
    let streamWrite: otc_pa_stream_write
    let streamFlush: otc_pa_stream_flush
    let streamGetLatency: otc_pa_stream_get_latency
    let streamUpdateTimingInfo: otc_pa_stream_update_timing_info
    let operationUnref: otc_pa_operation_unref
    let operationGetState: otc_pa_operation_get_state
    let strerror: otc_pa_strerror

    private init(_ library: SharedLibrary) throws(SharedLibraryError) {
        mainloopNew = try library.function("pa_threaded_mainloop_new")
        mainloopFree = try library.function("pa_threaded_mainloop_free")
        mainloopStart = try library.function("pa_threaded_mainloop_start")
        mainloopStop = try library.function("pa_threaded_mainloop_stop")
        mainloopLock = try library.function("pa_threaded_mainloop_lock")
        mainloopUnlock = try library.function("pa_threaded_mainloop_unlock")
        mainloopWait = try library.function("pa_threaded_mainloop_wait")
        mainloopSignal = try library.function("pa_threaded_mainloop_signal")
        mainloopGetAPI = try library.function("pa_threaded_mainloop_get_api")
        contextNew = try library.function("pa_context_new")
        contextUnref = try library.function("pa_context_unref")
        contextSetStateCallback = try library.function("pa_context_set_state_callback")
        contextErrno = try library.function("pa_context_errno")
        contextGetState = try library.function("pa_context_get_state")
        contextConnect = try library.function("pa_context_connect")
        contextDisconnect = try library.function("pa_context_disconnect")
        contextRttimeNew = try library.function("pa_context_rttime_new")
        contextRttimeRestart = try library.function("pa_context_rttime_restart")
        rtclockNow = try library.function("pa_rtclock_now")
        streamNew = try library.function("pa_stream_new")
        streamUnref = try library.function("pa_stream_unref")
        streamGetState = try library.function("pa_stream_get_state")
        streamSetStateCallback = try library.function("pa_stream_set_state_callback")
        streamSetUnderflowCallback = try library.function("pa_stream_set_underflow_callback")
        streamConnectPlayback = try library.function("pa_stream_connect_playback")
        streamWrite = try library.function("pa_stream_write")
        streamFlush = try library.function("pa_stream_flush")
        streamGetLatency = try library.function("pa_stream_get_latency")
        streamUpdateTimingInfo = try library.function("pa_stream_update_timing_info")
        operationUnref = try library.function("pa_operation_unref")
        operationGetState = try library.function("pa_operation_get_state")
        strerror = try library.function("pa_strerror")
    }
}
