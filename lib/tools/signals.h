// Process-wide signal handling for the tools (the library installs no handler):
// - SIGINT (Ctrl-C): the first one cancels the run at the next operator or WHILE
//   iteration, through TFLite's cancellation check, so the tool reports where it was
//   (a WHILE that never ends names itself and its iteration) and exits 130; a second
//   one (half a second or more later: a signal sent to the process and its group arrives
//   twice) kills the process as usual.
// - SIGBUS inside a model's mapping (the file truncated or rewritten by another
//   process): one line naming the file and exit status 1 (MappedFile::InstallFaultHandler).
#ifndef TFLITE_INSPECT_LIB_TOOLS_SIGNALS_H_
#define TFLITE_INSPECT_LIB_TOOLS_SIGNALS_H_

#include "tensorflow/lite/interpreter.h"

namespace tflite_inspect {

// Idempotent; every tool's main calls it first.
void InstallToolSignalHandlers();

// True once a SIGINT arrived.
bool InterruptRequested();

// Gives the interpreter (every subgraph) the cancellation check that reads the flag.
void CancelOnInterrupt(tflite::Interpreter* interpreter);

// A tool's exit status: 130 (128 + SIGINT, as shells report) after an interrupt, else rc.
int ToolExitStatus(int rc);

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_TOOLS_SIGNALS_H_
