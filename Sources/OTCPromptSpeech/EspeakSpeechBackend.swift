import CEspeakNG
import CPCAudio
import OTCPromptCore
