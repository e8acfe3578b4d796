#include "inference_diff/inference_diff_main.h"

int main(int argc, char** argv) { return tflite_inspect::InferenceDiffMain(argc, argv); }
