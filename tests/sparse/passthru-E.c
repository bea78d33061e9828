int v = __CHK_DEFINED;
