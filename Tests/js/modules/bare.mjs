import 'left-pad';
