# Installs the build tree into a fresh prefix, builds install_test/consumer against it
# with find_package(tflite_inspect), and runs it on a model. Invoked by ctest.
set(work "${BINARY_DIR}/install_test")
file(REMOVE_RECURSE "${work}")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BINARY_DIR}" --prefix "${work}/prefix"
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(rc)
  message(FATAL_ERROR "cmake --install failed: ${rc}")
endif()
foreach(header tensorflow/lite/schema/schema_generated.h tflite_inspect/model/model.h)
  if(NOT EXISTS "${work}/prefix/include/${header}")
    message(FATAL_ERROR "installed tree lacks include/${header}")
  endif()
endforeach()
execute_process(COMMAND "${CMAKE_COMMAND}" -S "${SOURCE_DIR}/lib/install_test/consumer"
                        -B "${work}/build" -G Ninja "-DCMAKE_PREFIX_PATH=${work}/prefix"
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "configuring the consumer failed: ${rc}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${work}/build" RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "building the consumer failed: ${rc}")
endif()
execute_process(COMMAND "${work}/build/consumer" "${MODEL}" RESULT_VARIABLE rc
                OUTPUT_VARIABLE out)
if(rc OR NOT out MATCHES "CONV_2D v3")
  message(FATAL_ERROR "consumer failed (${rc}): ${out}")
endif()
message(STATUS "consumer read:\n${out}")
