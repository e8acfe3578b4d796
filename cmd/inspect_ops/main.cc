#include "inspect_ops/inspect_ops_main.h"

int main(int argc, char** argv) { return tflite_inspect::InspectOpsMain(argc, argv); }
