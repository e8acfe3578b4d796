#include "benchmark_model/benchmark_model_main.h"

int main(int argc, char** argv) { return tflite_inspect::BenchmarkModelMain(argc, argv); }
