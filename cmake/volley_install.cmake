# `cmake --install <build> --prefix <P>`: the public headers, the static libraries, the `volley`
# command and a CMake package, so that consumers write
#   find_package(volley 0.1 REQUIRED)
#   target_link_libraries(app PRIVATE volley::snn)
# (docs/installing.md). Included from the top CMakeLists.txt after every part is defined.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(VOLLEY_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/volley
    CACHE STRING "Where the volley CMake package files are installed, relative to the prefix")

# The exported libraries and their names after the volley:: namespace.
set(volley_exported_parts snn hw danna convert eons temporal pipeline)
set(volley_exported_targets)
foreach(part IN LISTS volley_exported_parts)
  target_include_directories(volley_${part} INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  set_target_properties(volley_${part} PROPERTIES EXPORT_NAME ${part})
  list(APPEND volley_exported_targets volley_${part})
endforeach()

install(TARGETS ${volley_exported_targets} EXPORT volleyTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS volley RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

foreach(dir snn hw_models danna convert eons temporal pipeline)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${dir}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
          FILES_MATCHING PATTERN "*.hpp")
endforeach()
install(FILES ${PROJECT_BINARY_DIR}/generated/volley/config.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/volley)

install(EXPORT volleyTargets NAMESPACE volley:: DESTINATION ${VOLLEY_INSTALL_CMAKEDIR})
# The HDF5 this build used (FindHDF5's result variables), for consumers that do not enable C
# (see volleyConfig.cmake.in).
set(VOLLEY_HDF5_INCLUDE_DIRS "${HDF5_C_INCLUDE_DIRS}")
set(VOLLEY_HDF5_LIBRARIES "${HDF5_C_LIBRARIES}")
list(TRANSFORM HDF5_C_DEFINITIONS REPLACE "^-D" "" OUTPUT_VARIABLE VOLLEY_HDF5_DEFINITIONS)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/volleyConfig.cmake.in
  ${PROJECT_BINARY_DIR}/volleyConfig.cmake
  INSTALL_DESTINATION ${VOLLEY_INSTALL_CMAKEDIR})
# 0.x: a minor release may break the API, so only the same major.minor is compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/volleyConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/volleyConfig.cmake ${PROJECT_BINARY_DIR}/volleyConfigVersion.cmake
        DESTINATION ${VOLLEY_INSTALL_CMAKEDIR})
