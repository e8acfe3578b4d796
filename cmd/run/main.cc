#include "run/run_main.h"

int main(int argc, char** argv) { return tflite_inspect::RunMain(argc, argv); }
